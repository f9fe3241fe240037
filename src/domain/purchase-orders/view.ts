import type { Prisma } from '../../db/types.js';

export { PURCHASE_ORDER_STATUSES } from '../../contract/inventory-enums.js';

// What every purchase-order answer shows: the order, its lines with what is still open, totals.

export type PurchaseOrderRow = Prisma.PurchaseOrderGetPayload<{ include: { lines: true } }>;

export const OPEN_STATUSES = ['OPEN', 'PARTIALLY_RECEIVED', 'RECEIVED'] as const;

export const openOf = (l: { quantity: number; quantity_received: number }) => Math.max(0, l.quantity - l.quantity_received);

export function purchaseOrderView(po: PurchaseOrderRow, warehouseName?: string | null) {
  const lines = [...po.lines]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((l) => ({
      id: l.id,
      product_id: l.product_id,
      sku: l.sku,
      quantity: l.quantity,
      quantity_received: l.quantity_received,
      quantity_damaged: l.quantity_damaged,
      quantity_open: ['CLOSED', 'CANCELLED'].includes(po.status) ? 0 : openOf(l),
    }));
  return {
    id: po.id,
    status: po.status,
    fulfiller_team_id: po.team_id,
    warehouse_id: po.warehouse_id,
    warehouse_name: warehouseName ?? null,
    merchant_team_id: po.merchant_team_id,
    fulfillment_delegation_id: po.fulfillment_delegation_id,
    vendor_id: po.vendor_id,
    reference: po.reference,
    expected_at: po.expected_at,
    created_by_key_id: po.created_by_key_id,
    received_at: po.received_at,
    closed_at: po.closed_at,
    cancelled_at: po.cancelled_at,
    created_at: po.created_at,
    updated_at: po.updated_at,
    total_quantity: lines.reduce((n, l) => n + l.quantity, 0),
    total_received: lines.reduce((n, l) => n + l.quantity_received, 0),
    total_open: lines.reduce((n, l) => n + l.quantity_open, 0),
    lines,
  };
}

export type PurchaseOrderView = ReturnType<typeof purchaseOrderView>;
