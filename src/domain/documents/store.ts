import type { Db } from '../../db/types.js';

// The documents area's data access (issue 38 item 4): the reads its files are rendered from
// (packages, their labels and fulfillment orders, scan forms, label batches), through Prisma.
// The documents only read; each function here is one statement on the client given.

type Client = Db['prisma'];

// Packing slips and labels.

/** The team's package with its line items (by id). */
export function findPackageWithLines(client: Client, teamId: string, id: string) {
  return client.package.findFirst({
    where: { id, fulfiller_team_id: teamId },
    include: { line_items: { orderBy: { id: 'asc' } } },
  });
}

/** The fulfillment order with its line items (by id) and its order's lines' prices. */
export function findSlipOrder(client: Client, id: string) {
  return client.fulfillmentOrder.findUnique({
    where: { id },
    include: { line_items: { orderBy: { id: 'asc' } }, order: { include: { line_items: { select: { id: true, price: true } } } } },
  });
}

export function findTeamName(client: Client, id: string) {
  return client.team.findUnique({ where: { id }, select: { name: true } });
}

export function findWarehouse(client: Client, id: string) {
  return client.warehouse.findUnique({ where: { id } });
}

/** The team's package with its shipping label. */
export function findPackageWithLabel(client: Client, teamId: string, id: string) {
  return client.package.findFirst({
    where: { id, fulfiller_team_id: teamId },
    include: { shipping_label: true },
  });
}

/** The fulfillment order's order number. */
export function findOrderNumber(client: Client, fulfillmentOrderId: string) {
  return client.fulfillmentOrder.findUnique({
    where: { id: fulfillmentOrderId },
    select: { order: { select: { order_number: true } } },
  });
}

// Scan forms.

export function findTeamScanForm(client: Client, teamId: string, id: string) {
  return client.scanForm.findFirst({ where: { id, team_id: teamId } });
}

/** The form's packages by id, with what a manifest row shows. */
export function findManifestPackages(client: Client, scanFormId: string) {
  return client.package.findMany({
    where: { scan_form_id: scanFormId },
    orderBy: { id: 'asc' },
    select: {
      id: true,
      name: true,
      weight: true,
      weight_unit: true,
      shipping_label: { select: { tracking_code: true, formatted_service: true } },
      fulfillment_order: { select: { order: { select: { order_number: true } } } },
    },
  });
}

// Label batches.

export function findTeamBatchFormat(client: Client, teamId: string, id: string) {
  return client.labelBatch.findFirst({ where: { id, team_id: teamId }, select: { label_format: true, packing_slips: true } });
}

/** The batch's BOUGHT items' packages, in the batch's order. */
export function findBoughtPackageIds(client: Client, batchId: string) {
  return client.labelBatchItem.findMany({
    where: { batch_id: batchId, status: 'BOUGHT' },
    orderBy: { position: 'asc' },
    select: { package_id: true },
  });
}

/** The batch's items in its order. */
export function findBatchItems(client: Client, batchId: string) {
  return client.labelBatchItem.findMany({ where: { batch_id: batchId }, orderBy: { position: 'asc' } });
}
