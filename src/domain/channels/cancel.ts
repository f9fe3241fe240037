import type { Db } from '../../db/types.js';
import { DomainError } from '../errors.js';
import { cancelOrder } from '../fulfillment/index.js';

// A cancellation from the sales channel (Shopify orders/cancelled, WooCommerce cancelled or
// deleted) goes through the same cancel as a person's (src/domain/orders/cancel.ts, reason
// CHANNEL): what is not shipped is cancelled, its committed stock released through the ledger,
// unshipped labels voided and open packages closed; shipped work stays (that is a return). An
// order already CLOSED or CANCELLED has nothing left to cancel, so a repeated delivery changes
// nothing.

export async function cancelFromChannel(db: Db, teamId: string, orderId: string): Promise<void> {
  try {
    await cancelOrder(db, teamId, orderId, { reason: 'CHANNEL', restock: true });
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'conflict') return; // nothing left to cancel
    throw err;
  }
}
