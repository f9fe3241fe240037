import { assertPackageNotHeld } from '../orders/index.js';
import { statementsOf } from '../../db/statements.js';
import type { Db, LabelPurchase } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import { testLabelFlag } from '../carrier-integrations/index.js';
import { storeDocuments, type FetchedDocument } from './carriers/documents.js';
import type { PurchasedLabel } from '../../connectors/carriers/types.js';
import { presentWrittenPackage, type PackageView } from './package-view.js';
import { claimPackageForLabel, insertLabel } from './store/labels.js';
import { deletePackageDocuments } from './store/carriers.js';
import { deleteVoidedLabel, findTeamPackage, markPurchaseAttached } from './store/label-purchases.js';
import { transaction } from '../../db/tx.js';

// Attaching a label to a package, whichever way it was obtained (uploaded, the rate table, a
// carrier platform): one transaction, a compare-and-set on the package (PENDING and not yet
// labelled) plus the unique ShippingLabel.package_id, so a package is labelled at most once. A
// platform purchase's claim is settled in the same transaction and its documents stored.

export interface AttachOptions {
  integration: { id: string; name: string; type: string; rateId: string } | null;
  label_url: string | null;
  combined: string | null;
  documents: FetchedDocument[];
  purchase: LabelPurchase | null;
}

export function refuse(pkg: { id: string; status: string; shipment_status: string | null }): void {
  if (pkg.status !== 'PENDING') throw conflict(`Package ${pkg.id} is ${pkg.status}; fulfilled packages cannot be labelled.`);
  // shipment_status is set with a label and cleared when it is voided (label-void.ts): a voided
  // label does not count, relabelling replaces it.
  if (pkg.shipment_status) throw conflict(`Package ${pkg.id} already has a shipping label.`);
}

export async function attachLabel(db: Db, teamId: string, id: string, label: PurchasedLabel, o: AttachOptions): Promise<PackageView> {
  const integration = o.integration;
  return transaction(db, async (tx) => {
    // The compare-and-set, first for a package that was never labelled (the common case: no
    // label row to replace), then for one whose label was voided (replaced below). Labelling is
    // the only writer of a package's carrier_id (never null on a label), and a void keeps it, so
    // a null carrier_id means no label row; a filter on the label itself would be a NOT IN over
    // every label on PostgreSQL.
    // A hold placed while the label was being made refuses it (a condition of the compare-and-set),
    // unless a platform already sold it: then it is attached, the hold stops fulfill, and the label
    // can be voided.
    const st = statementsOf(tx);
    const now = new Date();
    const set = {
      carrier_id: label.carrier_id,
      service_id: label.service_id,
      formatted_service: label.formatted_service,
      provider_rate_id: integration?.rateId ?? null,
      carrier_integration_id: integration?.id ?? null,
      carrier_integration_name: integration?.name ?? null,
      carrier_integration_type: integration?.type ?? 'GENERIC',
      deliver_by: label.delivery_date,
    };
    const claim = async (fresh: boolean) => [await claimPackageForLabel(st, { id, teamId, fresh, notHeld: !o.purchase, set, now })];
    let [labelled] = await claim(true);
    const replacing = !labelled;
    if (replacing) [labelled] = await claim(false);
    if (!labelled) {
      const now = await findTeamPackage(tx, teamId, id);
      if (!now) throw notFound('Package', id);
      refuse(now);
      if (!o.purchase) await assertPackageNotHeld(tx, teamId, id); // explains a refusal by a hold
      throw conflict(`Package ${id} changed while it was being labelled; try again.`);
    }
    if (o.purchase) {
      // Settled once: a purchase attached by another process (recovery) is not attached again.
      const count = await markPurchaseAttached(tx, o.purchase.id, label.remote_transaction_id ?? null);
      if (!count) throw conflict(`The label purchase for package ${id} was already settled.`);
    }
    // The package CAS above holds the row, so only a voided label can be here; it is replaced.
    if (replacing) {
      await deleteVoidedLabel(tx, id);
      // The voided label's platform documents go with it (a table or uploaded label has none).
      await deletePackageDocuments(tx, id);
    }
    await storeDocuments(tx, teamId, id, o.documents);
    const created = await insertLabel(
      st,
      {
        package_id: id,
        fulfiller_team_id: labelled.fulfiller_team_id,
        merchant_team_id: labelled.merchant_team_id,
        tracking_code: label.tracking_code,
        tracking_url: label.tracking_url,
        label_url: o.label_url,
        original_label_url: label.download_url ?? o.label_url,
        label_with_packing_slip_url: o.combined,
        shipment_status: 'LABEL_PRINTED',
        zone: label.zone,
        price: label.price,
        currency: label.currency,
        list_rate: label.list_rate ?? label.price,
        list_currency: label.currency,
        retail_price: label.retail_rate ?? null,
        retail_currency: label.retail_rate != null ? label.currency : null,
        delivery_date: label.delivery_date,
        delivery_date_guaranteed: label.delivery_date_guaranteed,
        delivery_days: label.delivery_days,
        formatted_service: label.formatted_service,
        carrier_name: label.carrier_name,
        carrier_id: label.carrier_id,
        service_id: label.service_id,
        carrier_integration_id: integration?.id ?? null,
        carrier_integration_name: integration?.name ?? null,
        carrier_integration_type: integration?.type ?? 'GENERIC',
        remote_id: label.remote_id,
        remote_transaction_id: label.remote_transaction_id ?? null,
        from_address: labelled.from_address ?? undefined,
        to_address: labelled.to_address ?? undefined,
      },
      now,
    );
    await enqueueEvent(tx, teamId, 'package.labelled', {
      package_id: id,
      fulfillment_order_id: labelled.fulfillment_order_id,
      shipping_label_id: created.id,
      tracking_code: label.tracking_code,
      test_label: testLabelFlag(set),
      formatted_service: label.formatted_service,
    });
    // Presented from this transaction's writes: a PENDING package has no fulfillment yet.
    return presentWrittenPackage(tx, { ...labelled, shipping_label: created, fulfillment: null });
  });
}
