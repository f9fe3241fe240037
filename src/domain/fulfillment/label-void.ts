import type { Db } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import { testLabelFlag } from '../carrier-integrations/index.js';
import type { OutboundPolicy } from '../carrier-integrations/index.js';
import { adapterById } from './carriers/index.js';
import type { RefundState } from '../../connectors/carriers/types.js';
import { loadPackage, type PackageView } from './package-view.js';
import { transaction } from '../../db/tx.js';
import { findPackageForRefund, findPackageVoidState, markLabelVoided, unlabelPackage } from './store/label-void.js';

// Label void (spec 2.7 refund_status / voided_at): only before fulfillment. The first statement
// is a compare-and-set on the package (PENDING and labelled -> unlabelled); fulfill's own
// compare-and-set needs the package PENDING and labelled, so of a racing void and fulfill exactly
// one wins on both databases. The SHIPPING charge is billed by fulfill, so a voided label is never
// billed. The voided label stays on the package (refund_status SUBMITTED) until it is relabelled,
// which replaces it (ShippingLabel.package_id is unique); the package.label_voided event keeps it.
// A package on a scan form (manifested) cannot be voided: the same compare-and-set needs
// scan_form_id null, and a scan form takes packages with its own (src/domain/scan-forms).

// A label bought from a carrier platform is refunded there first (EasyPost refund, Shippo refund):
// only a refund the platform accepted voids it here, with the platform's refund_status
// (SUBMITTED, or REFUNDED at once); REFUNDED / REJECTED arrive later by webhook
// (carrier-webhooks.ts).

async function platformRefund(db: Db, teamId: string, id: string, policy: OutboundPolicy): Promise<RefundState> {
  const pkg = await findPackageForRefund(db.prisma, teamId, id);
  const label = pkg?.shipping_label;
  // Anything the void itself refuses is left to its compare-and-set, which explains it.
  if (!pkg || !label || label.voided_at || pkg.scan_form_id || pkg.status !== 'PENDING' || !pkg.shipment_status) return 'SUBMITTED';
  const adapter = await adapterById(db, teamId, label.carrier_integration_id, policy);
  if (!adapter?.refund) return 'SUBMITTED';
  let state: RefundState;
  try {
    state = await adapter.refund(label);
  } catch (err) {
    // A refund whose answer was lost (no answer in time, connection dropped) is read back from
    // the carrier: requested there = void here with its status; not requested = the error stands.
    const back = adapter.refundStatus ? await adapter.refundStatus(label).catch(() => null) : null;
    if (!back) throw err;
    state = back;
  }
  if (state === 'REJECTED') throw conflict(`${adapter.name} refused to refund the label of package ${id}; it stays valid.`);
  return state;
}

export async function voidLabel(db: Db, teamId: string, id: string, policy: OutboundPolicy = {}): Promise<PackageView> {
  const refundStatus = await platformRefund(db, teamId, id, policy);
  await recordVoid(db, teamId, id, refundStatus);
  return loadPackage(db.prisma, teamId, id);
}

/** The void's compare-and-set and event (also when a carrier's refund webhook says the label was refunded). */
export async function recordVoid(db: Db, teamId: string, id: string, refundStatus: RefundState) {
  await transaction(db, async (tx) => {
    const now = new Date();
    const count = await unlabelPackage(tx, teamId, id);
    if (!count) {
      const pkg = await findPackageVoidState(tx, teamId, id);
      if (!pkg) throw notFound('Package', id);
      if (pkg.scan_form_id)
        throw conflict(
          `Package ${id} is on scan form ${pkg.scan_form_id}: the carrier has scanned its label, which can no longer be voided.`,
        );
      if (pkg.status !== 'PENDING') throw conflict(`Package ${id} is ${pkg.status}; a label can only be voided before fulfillment.`);
      if (pkg.shipping_label?.voided_at) throw conflict(`The label of package ${id} is already voided.`);
      throw conflict(`Package ${id} has no shipping label to void.`);
    }
    const label = await markLabelVoided(tx, id, refundStatus, now);
    await enqueueEvent(tx, teamId, 'package.label_voided', {
      package_id: id,
      fulfillment_order_id: label.package.fulfillment_order_id,
      shipping_label_id: label.id,
      tracking_code: label.tracking_code,
      test_label: testLabelFlag(label),
      formatted_service: label.formatted_service,
      price: label.price,
      currency: label.currency,
      refund_status: refundStatus,
      voided_at: now.toISOString(),
    });
  });
}
