import type { Db, Prisma, TxClient } from '../../db/types.js';

// The carrier invoices' data access (issue 38 item 4), through Prisma: the imports (unique per
// team and content hash), the labels they correct (compare-and-set on correction_version), and
// the SHIPPING charges a correction reads and writes. Matching and pricing stay in import.ts and
// billing.ts.

type Client = Db['prisma'] | TxClient;

/** What an import reads of a label it matches. */
const labelSelect = {
  id: true,
  package_id: true,
  tracking_code: true,
  price: true,
  currency: true,
  service_id: true,
  carrier_id: true,
  voided_at: true,
  carrier_correction: true,
  correction_version: true,
  merchant_team_id: true,
  fulfiller_team_id: true,
  carrier_integration_id: true,
  carrier_integration_name: true,
  carrier_integration_type: true,
  package: { select: { warehouse_id: true, fulfillment: { select: { id: true, order_id: true, fulfillment_order_id: true } } } },
} satisfies Prisma.ShippingLabelSelect;
export type MatchedLabel = Prisma.ShippingLabelGetPayload<{ select: typeof labelSelect }>;

// Imports.

export function findImportByHash(client: Client, teamId: string, hash: string) {
  return client.carrierInvoiceImport.findUnique({ where: { team_id_content_hash: { team_id: teamId, content_hash: hash } } });
}

export function insertImport(tx: TxClient, data: Prisma.CarrierInvoiceImportUncheckedCreateInput) {
  return tx.carrierInvoiceImport.create({ data });
}

export function setImportResult(tx: TxClient, id: string, result: Prisma.InputJsonValue) {
  return tx.carrierInvoiceImport.update({ where: { id }, data: { result } });
}

/** One page of imports (pageArgs' window). */
export function findImportPage(
  client: Client,
  window: { where: Prisma.CarrierInvoiceImportWhereInput; orderBy: never; skip: number; take: number },
) {
  return client.carrierInvoiceImport.findMany(window);
}

export function findTeamImport(client: Client, teamId: string, id: string) {
  return client.carrierInvoiceImport.findFirst({ where: { id, team_id: teamId } });
}

// Labels.

/** The team's labels with these tracking codes, as an import matches them. */
export function findLabelsByTracking(tx: TxClient, teamId: string, codes: string[]) {
  return tx.shippingLabel.findMany({ where: { fulfiller_team_id: teamId, tracking_code: { in: codes } }, select: labelSelect });
}

/** Records the label's correction unless another import changed it since `version` read (compare-and-set); the count. */
export function correctLabel(tx: TxClient, id: string, version: number, correction: Prisma.InputJsonValue) {
  return tx.shippingLabel.updateMany({
    where: { id, correction_version: version },
    data: { carrier_correction: correction, correction_version: { increment: 1 } },
  });
}

// Charges.

/** The SHIPPING charges of these fulfillments: what a correction is priced against. */
export function findShippingCharges(tx: TxClient, fulfillmentIds: string[]) {
  return tx.charge.findMany({
    where: { fulfillment_id: { in: fulfillmentIds }, category: 'SHIPPING' },
    select: {
      fulfillment_id: true,
      warehouse_id: true,
      warehouse_name: true,
      calculated_amount: true,
      pricing_trace: true,
      fulfillment_delegation_id: true,
      merchant_team_id: true,
      fulfiller_team_id: true,
    },
  });
}

export function insertCharge(tx: TxClient, data: Prisma.ChargeUncheckedCreateInput) {
  return tx.charge.create({ data });
}
