import { createHash } from 'node:crypto';

// Money and line-item arithmetic of an order (all amounts in the order's currency).

export const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

export interface PricedLine {
  price: number;
  quantity: number;
  applied_discount_amount: number;
}

/**
 * total_discount = sum of line discounts (each a line total, not per unit);
 * total_price = subtotal - discount + tax + shipping; total_outstanding = total_price until paid.
 */
export function orderTotals(lines: PricedLine[], extra: { total_tax: number; total_shipping: number; paid: boolean }) {
  const subtotal = round2(lines.reduce((s, l) => s + l.price * l.quantity, 0));
  const total_discount = round2(lines.reduce((s, l) => s + l.applied_discount_amount, 0));
  const total_price = round2(subtotal - total_discount + extra.total_tax + extra.total_shipping);
  return {
    total_price,
    total_tax: round2(extra.total_tax),
    total_discount,
    total_shipping: round2(extra.total_shipping),
    current_shipping: round2(extra.total_shipping),
    total_outstanding: extra.paid ? 0 : total_price,
  };
}

/** Fingerprint of what ships (product and quantity of each core line), order-independent. */
export function lineItemHash(lines: { product_id: string | null; sku: string | null; quantity: number }[]): string {
  const parts = lines.map((l) => `${l.product_id ?? l.sku ?? ''}:${l.quantity}`).sort();
  return createHash('sha256').update(parts.join('|')).digest('hex');
}
