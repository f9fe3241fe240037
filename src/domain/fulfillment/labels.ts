import { assertPackageNotHeld } from '../orders/index.js';
import type { Db, LabelPurchase, Prisma } from '../../db/types.js';
import { conflict, DomainError, invalid, notFound, unprocessable } from '../errors.js';
import type { OutboundPolicy } from '../carrier-integrations/index.js';
import { NO_INTEGRATION_MESSAGE } from '../carrier-integrations/index.js';
import { adapterById, carrierAdapters, type CarrierAdapter, type PurchasedLabel, type RatePackage } from './carriers/index.js';
import { customsOf } from './carriers/customs.js';
import { countLabelPurchase } from '../../shared/metrics.js';
import { abandon, buyClaimed, claimPurchase, fetchDocuments, inProgress, rateOf, takeOver } from './carriers/purchases.js';
import { quoteAll, rateErrorData } from './carriers/shop.js';
import { chooseRates, rateChoiceOf } from './carrier-rates.js';
import type { RateOptions, RateStrategy } from '../../contract/rate-strategy.js';
import { carrierSlug, trackingUrl } from '../../connectors/carriers/tracking.js';
import { attachLabel, refuse } from './label-attach.js';
import { packageToRate, type PackageToRate } from './store/labels.js';
import { findDuePurchases, findOpenPurchase, findPackageLabelState, recordRateError, setPurchaseLease } from './store/label-purchases.js';
import { asAddress } from './lookups.js';
import { loadPackage, type PackageView } from './package-view.js';
import { labelDocumentUrl, labelWithPackingSlipUrl } from './document-urls.js';
import type { LabelFormat } from '../../contract/enums.js';

// Labels: upload an externally generated one, or shop rates across the team's carrier
// integrations (carriers/) and buy the chosen one. Carrier calls happen outside the database
// transaction; a platform purchase is claimed first (carriers/purchases.ts) and attached with a
// compare-and-set (label-attach.ts), so a package is labelled at most once and a label a platform
// sold is never lost nor bought twice.

export interface LabelInput {
  // upload of an externally generated label: all six together
  label_url?: string;
  tracking_number?: string;
  carrier?: string;
  service?: string;
  cost?: number;
  cost_currency?: string;
  tracking_url?: string;
  // or rate shopping
  rate_strategy?: RateStrategy;
  rate_within_days?: number;
  rate_exclude_carrier_ids?: string[];
  carrier_id?: string;
  service_id?: string;
  /** Document format of a bought label's label_url: PDF (default) or ZPL for thermal printers. */
  label_format?: LabelFormat;
}

const UPLOAD_FIELDS = ['label_url', 'tracking_number', 'carrier', 'service', 'cost', 'cost_currency'] as const;
type Upload = Required<Pick<LabelInput, (typeof UPLOAD_FIELDS)[number]>> & { tracking_url?: string };

/** The upload fields when the body is an upload (all six present), null for rate shopping. */
function uploadOf(input: LabelInput): Upload | null {
  const given = UPLOAD_FIELDS.filter((f) => input[f] !== undefined);
  if (!given.length && input.tracking_url === undefined) return null;
  const missing = UPLOAD_FIELDS.filter((f) => input[f] === undefined);
  if (missing.length) {
    throw new DomainError('validation-failed', `An uploaded label needs ${UPLOAD_FIELDS.join(', ')}; missing: ${missing.join(', ')}.`, {
      errors: missing.map((f) => ({ path: `body.${f}`, message: 'is required for an uploaded label' })),
    });
  }
  for (const f of ['rate_strategy', 'rate_within_days', 'rate_exclude_carrier_ids', 'carrier_id', 'service_id'] as const) {
    if (input[f] !== undefined) throw invalid(`body.${f}`, 'cannot be combined with an uploaded label');
  }
  return input as Upload;
}

const uploaded = (u: Upload): PurchasedLabel => ({
  tracking_code: u.tracking_number,
  tracking_url: u.tracking_url ?? trackingUrl(u.carrier, u.tracking_number),
  label_url: u.label_url,
  remote_id: null,
  price: u.cost,
  currency: u.cost_currency.toUpperCase(),
  formatted_service: `${u.carrier} ${u.service}`,
  carrier_name: u.carrier,
  carrier_id: carrierSlug(u.carrier),
  service_id: carrierSlug(u.service),
  delivery_days: null,
  delivery_date: null,
  delivery_date_guaranteed: false,
  zone: null,
});

const ratePackage = (pkg: PackageToRate, format: LabelFormat): RatePackage => ({
  id: pkg.id,
  weight: pkg.weight,
  weight_unit: pkg.weight_unit,
  length: pkg.length,
  width: pkg.width,
  height: pkg.height,
  measurement_unit: pkg.measurement_unit,
  from: asAddress(pkg.from_address),
  label_format: format,
  ...shippingOptions(pkg.config),
});

/** The package config's signature and insurance as the adapters take them (automation rules may set them, docs/automation.md). */
export function shippingOptions(config: unknown): Pick<RatePackage, 'delivery_confirmation' | 'insured_amount'> {
  const c = (config && typeof config === 'object' ? config : {}) as Record<string, unknown>;
  const ins = (c.insurance_policy && typeof c.insurance_policy === 'object' ? c.insurance_policy : {}) as {
    mode?: unknown;
    amount?: unknown;
  };
  return {
    // NO_SIGNATURE is the spec's default: nothing is asked of the carrier (EasyPost reads an explicit NO_SIGNATURE as releasing liability).
    delivery_confirmation:
      typeof c.delivery_confirmation === 'string' && c.delivery_confirmation !== 'NO_SIGNATURE' ? c.delivery_confirmation : null,
    insured_amount: ins.mode === 'amount' && typeof ins.amount === 'number' && ins.amount > 0 ? ins.amount : null,
  };
}

/** The package's stored strategy and options. */
const storedRateOptions = (pkg: PackageToRate): RateOptions => ({
  rate_strategy: pkg.rate_strategy as RateStrategy | null,
  rate_within_days: pkg.rate_within_days,
  rate_exclude_carrier_ids: Array.isArray(pkg.rate_exclude_carrier_ids) ? (pkg.rate_exclude_carrier_ids as string[]) : null,
});

const integrationOf = (a: CarrierAdapter, rateId: string) => ({ id: a.id, name: a.name, type: a.type, rateId });

/**
 * `origin` (scheme://host of the request) makes a bought label's label_url absolute: it is this
 * server's label document (GET /v1/ops/packages/{id}/label): the platform's own label bytes,
 * downloaded and stored, or fos's rendering for the rate table, and its
 * label_with_packing_slip_url the label followed by the packing slip.
 */
export async function labelPackage(
  db: Db,
  teamId: string,
  id: string,
  input: LabelInput,
  origin = '',
  policy: OutboundPolicy = {},
): Promise<PackageView> {
  const upload = uploadOf(input);
  // An uploaded label needs nothing from the package before its compare-and-set, which refuses
  // as a read would (and then explains why).
  if (upload)
    return attachLabel(db, teamId, id, uploaded(upload), {
      integration: null,
      label_url: upload.label_url,
      combined: null,
      documents: [],
      purchase: null,
    });
  const pkg = await packageToRate(db, teamId, id);
  if (!pkg) throw notFound('Package', id);
  refuse(pkg);
  // A purchase still open for this package (a lost answer, a crash): settled, never bought again.
  const open = pkg.open_purchase_id ? await findOpenPurchase(db.prisma, id) : null;
  if (open) return settleOpen(db, open, policy);
  const options = rateChoiceOf(input, storedRateOptions(pkg));
  const strategy = options.rate_strategy;
  if (!strategy && !input.service_id) {
    throw invalid(
      'body.rate_strategy',
      'is required (the package has none): send an uploaded label (label_url, tracking_number, carrier, service, cost, cost_currency) or rate_strategy CHEAPEST or FASTEST',
    );
  }
  // The request's format, else the warehouse's default when the package was made (admin warehouse label-format).
  const format: LabelFormat = input.label_format ?? (pkg.label_format === 'ZPL' ? 'ZPL' : 'PDF');
  const to = asAddress(pkg.to_address);
  const rp = ratePackage(pkg, format);
  const adapters = await carrierAdapters(db, teamId, pkg.warehouse_id, policy);
  const quotes = await quoteAll(adapters, rp, to, await customsOf(db.prisma, pkg));
  const { all, eligible, refusal } = chooseRates(quotes, { ...options, carrier_id: input.carrier_id, service_id: input.service_id });
  const best = eligible[0];
  if (!best) {
    const message = !adapters.length
      ? NO_INTEGRATION_MESSAGE
      : refusal
        ? refusal
        : all.length
          ? `No rate matches the requested service (${[input.carrier_id, input.service_id].filter(Boolean).join(' ')}); see available_rates.`
          : 'No carrier service can ship this package.';
    const data = rateErrorData(message, quotes, all);
    // Kept on the package so the failure is visible later (cleared by a successful label).
    await recordRateError(db.prisma, id, data as unknown as Prisma.InputJsonValue, message);
    // The strategy's options left every matching rate out: the request cannot be met as asked (422).
    if (refusal) throw unprocessable(`Package ${id} could not be rated: ${message}`, { rate_error_data: data });
    throw conflict(`Package ${id} could not be rated: ${message}`, { rate_error_data: data });
  }
  const { adapter, rate } = best;
  const integration = integrationOf(adapter, rate.provider_rate_id);
  if (!adapter.remote) {
    const label = await countLabelPurchase(rate.carrier_id, () => adapter.buy(rate, rp, to));
    return attachLabel(db, teamId, id, label, {
      integration,
      label_url: labelDocumentUrl(origin, id, format),
      combined: labelWithPackingSlipUrl(origin, id),
      documents: [],
      purchase: null,
    });
  }
  // No label is bought while the order is on hold (a table or uploaded label is refused by attachLabel's compare-and-set).
  await assertPackageNotHeld(db.prisma, teamId, id);
  const claim = await claimPurchase(db, teamId, id, adapter, rate, format, origin);
  // fos_label_purchases_total{carrier, outcome}
  const label = await countLabelPurchase(rate.carrier_id, () =>
    buyClaimed(db, claim, adapter, rp, to, { format, reference: claim.id, customs: null }),
  );
  return finishPurchase(db, claim, adapter, label, policy);
}

/** Downloads the sold label's documents and attaches it; a failed download leaves the claim to reconcile. */
async function finishPurchase(db: Db, claim: LabelPurchase, adapter: CarrierAdapter, label: PurchasedLabel, policy: OutboundPolicy) {
  let documents;
  try {
    documents = await fetchDocuments(label, policy);
  } catch (err) {
    await setPurchaseLease(db.prisma, claim.id, new Date());
    throw err;
  }
  const format = claim.label_format === 'ZPL' ? 'ZPL' : 'PDF';
  try {
    return await attachLabel(db, claim.team_id, claim.package_id, label, {
      integration: integrationOf(adapter, rateOf(claim).provider_rate_id),
      label_url: labelDocumentUrl(claim.origin, claim.package_id, format),
      combined: labelWithPackingSlipUrl(claim.origin, claim.package_id),
      documents,
      purchase: claim,
    });
  } catch (err) {
    // The package was labelled another way (an upload) or fulfilled meanwhile: the label the
    // platform sold is refunded there and the claim closed, instead of being retried forever.
    const now = await findPackageLabelState(db.prisma, claim.package_id);
    // The very label this answer carries was attached already (recovery settled the claim while
    // this answer was late): it is the package's label, kept, never refunded behind its back.
    const held = now?.shipping_label;
    if (held && !held.voided_at && sameLabel(held, label)) return loadPackage(db.prisma, claim.team_id, claim.package_id);
    if (err instanceof DomainError && err.kind === 'conflict' && now && (now.status !== 'PENDING' || now.shipment_status)) {
      await adapter
        .refund?.({ remote_id: label.remote_id, remote_transaction_id: label.remote_transaction_id ?? null })
        .catch(() => undefined);
      await abandon(db, claim, `bought but not attached (${err.message}); refund requested`);
    }
    throw err;
  }
}

const sameLabel = (a: { remote_id: string | null; tracking_code: string | null }, b: PurchasedLabel) =>
  (!!a.remote_id && a.remote_id === b.remote_id) || (!!a.tracking_code && a.tracking_code === b.tracking_code);

/**
 * Settles an open purchase: busy while its lease runs (the purchase is live elsewhere), else
 * taken over and reconciled with the platform: attached when it sold the rate, abandoned when not.
 */
export async function settleOpen(db: Db, open: LabelPurchase, policy: OutboundPolicy): Promise<PackageView> {
  const mine = open.lease_until.getTime() <= Date.now() ? await takeOver(db, open) : null;
  if (!mine) throw inProgress(open.package_id);
  const adapter = await adapterById(db, mine.team_id, mine.integration_id, policy);
  if (!adapter?.reconcile) {
    await abandon(db, mine, 'the integration is gone');
    throw conflict(`The label purchase for package ${mine.package_id} cannot be reconciled: its integration was removed.`);
  }
  const format = mine.label_format === 'ZPL' ? 'ZPL' : 'PDF';
  const state = await adapter.reconcile(mine.remote_shipment_id, rateOf(mine).provider_rate_id, { format, reference: mine.id });
  if (!state.bought) {
    await abandon(db, mine, 'the platform did not sell the claimed rate');
    throw new DomainError('unavailable', `The earlier label purchase for package ${mine.package_id} did not complete; retry to buy.`);
  }
  const label = { ...state.label, remote_id: state.label.remote_id ?? mine.remote_shipment_id };
  return finishPurchase(db, mine, adapter, label, policy);
}

/** Recovery (server start and every few seconds): open purchases whose lease ran out. */
export async function recoverPurchases(db: Db, policy: OutboundPolicy, log?: { warn(o: object, m: string): void }) {
  const due = await findDuePurchases(db.prisma, new Date());
  let settled = 0;
  for (const p of due) {
    try {
      await settleOpen(db, p, policy);
      settled++;
    } catch (err) {
      if (!(err instanceof DomainError)) log?.warn({ err, purchase_id: p.id }, 'label purchase recovery failed');
    }
  }
  return settled;
}
