import type { Db, Shop } from '../../db/types.js';
import { DomainError } from '../errors.js';
import { normalizeAddress, verifyAddress } from '../orders/index.js';
import { editOrder, type OrderEdit } from '../orders/index.js';
import { placeHold } from '../orders/index.js';
import type { SoldLine } from '../orders/index.js';
import { transaction } from '../../db/tx.js';
import { verifyAfterConvert } from '../carrier-integrations/index.js';
import type { OutboundPolicy } from '../carrier-integrations/index.js';
import { ALLOCATABLE_STATUSES, type OrderConfig } from '../../contract/orders-enums.js';
import type { ChannelLine, ChannelOrder } from '../../connectors/channels/types.js';
import { countOpenAddressHolds, findOpenShopEditHold, orderAddressConfig, orderForEdit, orderLines, setHoldNotes } from './store/edits.js';
import { markOrderSynced } from './store/intake.js';

// Shop edits (issue 37 item 5): an orders/updated (Shopify) or order.updated (WooCommerce) whose
// shipping address or lines differ from the fos order. While nothing is packed or shipped the
// change is applied through the order edit (edit.ts: one transaction, stock released or
// committed through the ledger, reallocated like a conversion), the new address verified like
// intake verifies it. Once packing started — a package exists, a unit shipped or someone holds a
// lock — or when the change cannot be mapped (a bundle's quantity, a line matching no product, a
// locked address), nothing is changed: the order goes on a SHOP_EDIT hold whose notes are the
// difference, old -> new, for a person to decide. All or nothing: never half an edit.

type Matcher = (o: ChannelOrder) => Promise<SoldLine[]>;

interface LineDiff {
  label: string;
  old: number;
  want: number;
}

interface Plan {
  edit: OrderEdit;
  diffs: string[];
  /** Parts no automatic edit can apply: always a person's. */
  manual: string[];
}

const addressText = (a: Record<string, string | null> | null) =>
  a ? [a.name, a.company, a.address1, a.address2, a.city, a.state, a.zip, a.country, a.phone].filter(Boolean).join(', ') : '(none)';

function planAddress(order: { shipping_address: unknown; lock_address: boolean }, o: ChannelOrder, plan: Plan) {
  const before = normalizeAddress(order.shipping_address as never);
  const after = normalizeAddress(o.shipping_address);
  if (JSON.stringify(before) === JSON.stringify(after) || !after) return;
  plan.diffs.push(`shipping address: ${addressText(before)} -> ${addressText(after)}`);
  if (order.lock_address) plan.manual.push('the order has lock_address set');
  else plan.edit.shipping_address = after;
}

async function planLines(db: Db, orderId: string, o: ChannelOrder, match: Matcher, plan: Plan) {
  const lines = await orderLines(db.prisma, orderId);
  const wanted = new Map(o.lines.map((l) => [l.remote_id, l]));
  const seen = new Set<string>();
  const diffs: LineDiff[] = [];
  for (const orig of lines.filter((l) => l.kind === 'ORIGINAL' && l.remote_id)) {
    seen.add(orig.remote_id!);
    const cores = lines.filter((l) => l.kind === 'CORE' && l.remote_id === orig.remote_id);
    // A plain line is one CORE line of the same product: its quantity is the line's.
    const plain = orig.product_id && cores.length === 1 && cores[0]!.product_id === orig.product_id ? cores[0]! : null;
    const old = plain ? plain.total_quantity - plain.removed_quantity : orig.total_quantity - orig.removed_quantity;
    const want = wanted.get(orig.remote_id!)?.quantity ?? 0; // a line the shop no longer lists was removed
    if (want === old) continue;
    const label = orig.sku ?? orig.name;
    diffs.push({ label, old, want });
    if (!plain) plan.manual.push(`${label} is ${orig.product_id ? 'a bundle' : 'not mapped to a product'}`);
    else (plan.edit.update_line_items ??= []).push({ order_line_item_id: plain.id, quantity: want });
  }
  const added: ChannelLine[] = o.lines.filter((l) => !seen.has(l.remote_id) && l.quantity > 0);
  if (added.length) {
    const matched = await match({ ...o, lines: added });
    for (const [i, l] of added.entries()) {
      const m = matched[i]!;
      diffs.push({ label: l.sku ?? l.name, old: 0, want: l.quantity });
      if (!m.product) plan.manual.push(`${l.sku ?? l.name} matches no fos product`);
      else
        (plan.edit.add_line_items ??= []).push({ product_id: m.product.id, quantity: l.quantity, price: l.price, remote_id: l.remote_id });
    }
  }
  for (const d of diffs) plan.diffs.push(`line ${d.label}: ${d.old} -> ${d.want}`);
}

/** The SHOP_EDIT hold with the difference; a repeat of the same edit changes nothing, a newer one replaces the notes. */
async function holdForPerson(db: Db, orderId: string, why: string, diffs: string[]) {
  const notes = `The shop changed this order; ${why}. Decide, edit the order (or ask the shop), then release the hold. Changes: ${diffs.join('; ')}.`;
  await transaction(db, async (tx) => {
    await markOrderSynced(tx, orderId, new Date()); // the write first: locks the order row
    const open = await findOpenShopEditHold(tx, orderId);
    if (open?.reason_notes === notes) return;
    if (open) await setHoldNotes(tx, open.id, notes);
    else await placeHold(tx, { orderId, reason: 'SHOP_EDIT', notes });
  });
}

/** A new address that fails the offline check is held like intake holds it; then the team's verifier (EasyPost). */
async function verifyEdited(db: Db, shop: Shop, orderId: string, policy: OutboundPolicy) {
  const order = await orderAddressConfig(db.prisma, orderId);
  const config = (order.config ?? {}) as Partial<OrderConfig>;
  if (config.address_verification_enabled === false) return;
  const check = verifyAddress(order.shipping_address as never);
  if (!check.verified) {
    await transaction(db, async (tx) => {
      const open = await countOpenAddressHolds(tx, orderId);
      if (!open)
        await placeHold(tx, {
          orderId,
          reason: 'ADDRESS_VERIFICATION_FAILED',
          notes: check.errors.map((e) => e.message).join('; ') || 'The shipping address did not verify.',
        });
    });
  }
  await verifyAfterConvert(db, shop.fulfiller_team_id!, { id: orderId, config }, policy);
}

/** Applies a shop's edit of an open order, or holds it for a person; true when anything differed. */
export async function applyShopEdit(db: Db, shop: Shop, orderId: string, o: ChannelOrder, match: Matcher, policy: OutboundPolicy) {
  const order = await orderForEdit(db.prisma, orderId);
  if (!ALLOCATABLE_STATUSES.includes(order.status)) return false; // closed or cancelled: nothing left to change
  const plan: Plan = { edit: {}, diffs: [], manual: [] };
  planAddress(order, o, plan);
  await planLines(db, orderId, o, match, plan);
  if (!plan.diffs.length) return false;
  if (plan.manual.length) {
    await holdForPerson(db, orderId, `fos cannot apply it by itself (${plan.manual.join('; ')})`, plan.diffs);
    return true;
  }
  try {
    await editOrder(db, shop.fulfiller_team_id!, orderId, plan.edit, { untilPacked: true });
  } catch (err) {
    if (!(err instanceof DomainError) || !['conflict', 'lock-held'].includes(err.kind)) throw err;
    const why = err.extra.packing_started || err.kind === 'lock-held' ? 'packing had started' : 'it could not be applied';
    await holdForPerson(db, orderId, `${why}: ${err.message.replace(/\.$/, '')}`, plan.diffs);
    return true;
  }
  if (plan.edit.shipping_address) await verifyEdited(db, shop, orderId, policy);
  return true;
}
