import type { Db, LabelPurchase, Prisma } from '../../../db/types.js';
import { conflict, DomainError, notFound } from '../../errors.js';
import { transaction } from '../../../db/tx.js';
import { refuse } from '../label-attach.js';
import type { OutboundPolicy } from '../../carrier-integrations/index.js';
import { download, type FetchedDocument } from './documents.js';
import { isNoAnswer } from '../../../connectors/carriers/platform.js';
import { deadlineMs } from '../../../net/deadlines.js';
import type { BuyOptions, CarrierAdapter, PurchasedLabel, Rate, RatePackage } from '../../../connectors/carriers/types.js';
import type { Address } from '../lookups.js';
import {
  abandonPurchase,
  findTeamPackageState,
  insertLabelPurchase,
  renewPurchaseLease,
  setPurchaseLease,
} from '../store/label-purchases.js';

// Buying a platform label is claim-before-call: a LabelPurchase row (one open per package:
// active_package_id is unique) is committed before the platform is asked, naming the rate and the
// platform's shipment. Whatever happens next (an answer lost to a timeout, a crash between the
// platform's answer and fos's commit), the claim stays until it is settled: attached when the
// label is recorded, or reconciled with the platform (adapter.reconcile: did it sell that rate?)
// by a retried request or the recovery worker once its lease ran out. A label the platform sold
// is never lost and never bought twice. The lease (FOS_LABEL_CLAIM_LEASE_MS, 2 minutes) outlasts
// a live request's platform calls (30 s timeouts), so recovery never races a live purchase.

export const leaseMs = () => Number(process.env.FOS_LABEL_CLAIM_LEASE_MS) || 120_000;

const isUnique = (e: unknown) => (e as { code?: string })?.code === 'P2002';

export async function claimPurchase(
  db: Db,
  teamId: string,
  packageId: string,
  adapter: CarrierAdapter,
  rate: Rate,
  format: 'PDF' | 'ZPL',
  origin: string,
) {
  try {
    // The insert and the re-check are one transaction: the insert waits on (or collides with) an
    // open claim, and the package read after it sees a label another claim attached meanwhile (a
    // racer that rated before that label existed must not buy a second one).
    return await transaction(db, async (tx) => {
      const claim = await insertLabelPurchase(tx, {
        team_id: teamId,
        package_id: packageId,
        active_package_id: packageId,
        integration_id: adapter.id,
        state: 'CLAIMED',
        label_format: format,
        rate: { ...rate, delivery_date: rate.delivery_date?.toISOString() ?? null } as unknown as Prisma.InputJsonValue,
        remote_shipment_id: rate.remote_shipment_id ?? null,
        lease_until: new Date(Date.now() + leaseMs()),
        origin,
      });
      const pkg = await findTeamPackageState(tx, teamId, packageId);
      if (!pkg) throw notFound('Package', packageId);
      refuse(pkg);
      return claim;
    });
  } catch (e) {
    if (isUnique(e)) throw inProgress(packageId);
    throw e;
  }
}

export const inProgress = (packageId: string) =>
  new DomainError('unavailable', `A label purchase for package ${packageId} is in progress; retry in a moment.`);

export const rateOf = (p: LabelPurchase): Rate => {
  const r = p.rate as unknown as Rate & { delivery_date: string | null };
  return { ...r, delivery_date: r.delivery_date ? new Date(r.delivery_date) : null };
};

/** The label's documents, downloaded (label, and a commercial invoice when there is one). */
export async function fetchDocuments(label: PurchasedLabel, policy: OutboundPolicy): Promise<FetchedDocument[]> {
  if (!label.download_url) throw new DomainError('unavailable', 'The carrier platform sold the label without a label file; try again.');
  const docs = [await download(label.download_url, 'LABEL', label.download_format ?? 'PDF', policy)];
  if (label.commercial_invoice_url) docs.push(await download(label.commercial_invoice_url, 'COMMERCIAL_INVOICE', 'PDF', policy));
  return docs;
}

/** Abandons a claim the platform did not sell (frees the package for another purchase). */
export async function abandon(db: Db, p: LabelPurchase, message: string) {
  await abandonPurchase(db.prisma, p.id, message.slice(0, 500));
}

/**
 * Buys the claimed rate. A refusal from the platform abandons the claim; an unknown outcome
 * (timeout, connection lost) asks the platform what happened, and when even that fails the claim
 * is left for reconciliation (503: retry; the retry reconciles instead of buying).
 */
export async function buyClaimed(
  db: Db,
  p: LabelPurchase,
  adapter: CarrierAdapter,
  pkg: RatePackage,
  to: Address,
  opts: BuyOptions,
): Promise<PurchasedLabel> {
  const rate = rateOf(p);
  try {
    return await adapter.buy(rate, pkg, to, opts);
  } catch (err) {
    let state;
    try {
      state = await adapter.reconcile!(p.remote_shipment_id, rate.provider_rate_id, opts);
    } catch {
      // A purchase the carrier did not answer may still complete there: the claim is read back
      // once the carrier has had a purchase deadline more to finish (not at once, when a late
      // sale would be missed and the claim abandoned); a reply lost otherwise is read back now.
      const noAnswer = isNoAnswer(err);
      const settleAt = new Date(Date.now() + (noAnswer ? deadlineMs('purchase') : 0));
      await setPurchaseLease(db.prisma, p.id, settleAt);
      throw new DomainError(
        'unavailable',
        noAnswer
          ? `${adapter.name} did not answer the label purchase for package ${p.package_id} in time; it is reconciled with the carrier (read back, never bought twice): retry after ${settleAt.toISOString()}.`
          : `The carrier platform did not confirm the purchase for package ${p.package_id}; retry (it will be reconciled, never bought twice).`,
      );
    }
    if (state.bought) return state.label;
    await abandon(db, p, err instanceof Error ? err.message : 'refused');
    throw err instanceof DomainError ? conflict(err.message) : err;
  }
}

/**
 * Takes over an open claim whose lease ran out (compare-and-set on the lease), so one process
 * reconciles it. Null when someone else holds it.
 */
export async function takeOver(db: Db, p: LabelPurchase): Promise<LabelPurchase | null> {
  const lease_until = new Date(Date.now() + leaseMs());
  const count = await renewPurchaseLease(db.prisma, p.id, p.lease_until, lease_until);
  return count ? { ...p, lease_until } : null;
}
