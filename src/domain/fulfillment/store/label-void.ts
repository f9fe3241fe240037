import type { Db, TxClient } from '../../../db/types.js';

// The label void's data access (issue 38): the package and label it reads before asking the
// platform for a refund, its compare-and-set on the package and the label's voiding
// (label-void.ts). The rules (what may be voided, and the refusals' wording) stay there.

type Client = Db['prisma'] | TxClient;

/** The team's package with what its label's refund needs. */
export function findPackageForRefund(client: Client, teamId: string, id: string) {
  return client.package.findFirst({
    where: { id, fulfiller_team_id: teamId },
    select: {
      status: true,
      scan_form_id: true,
      shipment_status: true,
      shipping_label: { select: { voided_at: true, carrier_integration_id: true, remote_id: true, remote_transaction_id: true } },
    },
  });
}

/**
 * The void's compare-and-set: the team's PENDING, labelled package not on a scan form, whose
 * label is not voided, loses its label columns. The count changed (0 or 1).
 */
export async function unlabelPackage(tx: TxClient, teamId: string, id: string): Promise<number> {
  const { count } = await tx.package.updateMany({
    where: {
      id,
      fulfiller_team_id: teamId,
      status: 'PENDING',
      shipment_status: { not: null },
      scan_form_id: null,
      shipping_label: { is: { voided_at: null } },
    },
    data: {
      shipment_status: null,
      provider_rate_id: null,
      carrier_integration_id: null,
      carrier_integration_name: null,
      carrier_integration_type: null,
      deliver_by: null,
    },
  });
  return count;
}

/** The team's package with what a refused void is explained by. */
export function findPackageVoidState(client: Client, teamId: string, id: string) {
  return client.package.findFirst({
    where: { id, fulfiller_team_id: teamId },
    select: { status: true, scan_form_id: true, shipping_label: { select: { voided_at: true } } },
  });
}

/** The package's label voided now with this refund status, returned with what its event shows. */
export function markLabelVoided(tx: TxClient, packageId: string, refundStatus: string, now: Date) {
  return tx.shippingLabel.update({
    where: { package_id: packageId },
    data: { refund_status: refundStatus, voided_at: now },
    select: {
      id: true,
      tracking_code: true,
      carrier_integration_type: true,
      carrier_integration_id: true,
      formatted_service: true,
      price: true,
      currency: true,
      package: { select: { fulfillment_order_id: true } },
    },
  });
}
