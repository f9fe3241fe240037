import { dbNow } from '../clock.js';
import type { Db } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import type { DraftPayload } from './drafts.js';
import { allocatePending } from './pending.js';
import { planOrder, writeOrder } from './place.js';
import { transaction } from '../../db/tx.js';
import { getOrder } from './orders.js';
import { findProductsWithBundles } from './store/bundles.js';
import { claimOpenDraft, findDraftOrderId, findTeamDraft, setDraftOrder } from './store/drafts.js';

// Draft -> order, in one transaction: compare-and-set the draft OPEN -> CONVERTED (a second or
// concurrent conversion finds it CONVERTED: 409), then writeOrder (place.ts, shared with
// sales-channel intake): number the order, commit inventory, write the CORE and ORIGINAL line
// items, one fulfillment order per shipping warehouse, the payment hold and the order.created
// event. Units without stock stay unallocated on the OPEN order and are allocated later by
// priority (allocatePending).

export async function convertDraftOrder(db: Db, fulfillerTeamId: string, draftId: string) {
  const draft = await findTeamDraft(db.prisma, fulfillerTeamId, draftId);
  if (!draft) throw notFound('Draft order', draftId);
  if (draft.status !== 'OPEN') throw alreadyConverted(draft.id, draft.order_id);
  const p = draft.payload as unknown as DraftPayload;

  // Virtual bundles ship as their components: ORIGINAL lines are what was sold, CORE lines what is picked.
  const products = await findProductsWithBundles(
    db.prisma,
    draft.line_items.map((l) => l.product_id),
  );
  const productOf = new Map(products.map((x) => [x.id, x]));
  const plan = planOrder(
    { merchant_team_id: draft.merchant_team_id, fulfiller_team_id: fulfillerTeamId, shop_id: draft.shop_id },
    p,
    draft.line_items.map((l) => ({
      product: productOf.get(l.product_id) ?? { id: l.product_id, sku: l.sku, name: l.name, image_url: null },
      sku: l.sku,
      name: l.name,
      quantity: l.quantity,
      price: l.price,
      applied_discount_amount: l.applied_discount_amount,
      draft_line_id: l.id,
    })),
  );

  const orderId = await transaction(db, async (tx) => {
    if ((await claimOpenDraft(tx, fulfillerTeamId, draft.id)) !== 1) {
      const now = await findDraftOrderId(tx, draft.id);
      throw alreadyConverted(draft.id, now?.order_id ?? null);
    }
    const written = await writeOrder(tx, plan, { event: { draft_order_id: draft.id }, now: dbNow(db) });
    await setDraftOrder(tx, draft.id, written.orderId);
    return written.orderId;
  });

  // Stock this order left (or that arrived meanwhile) goes to waiting orders by priority. The
  // conversion has committed; a failure here only delays allocation to the next run.
  await allocatePending(db, fulfillerTeamId).catch(() => undefined);
  return getOrder(db, fulfillerTeamId, orderId);
}

const alreadyConverted = (draftId: string, orderId: string | null) =>
  conflict(`Draft order ${draftId} was already converted${orderId ? ` to order ${orderId}` : ''}.`, { order_id: orderId });
