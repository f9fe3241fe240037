import { isUuid } from '../../shared/order-ref.js';
import { createHash } from 'node:crypto';
import { CliError, ExitCode } from '../../errors.js';
import { looksLikeIdPrefix } from '../../shared/refs.js';
import { isNotFound, type FulfillApi, type FulfillmentOrder } from './api.js';
import type { IdRef } from './input.js';

/**
 * What to fulfill: ids -> fulfillment orders (an order id expands to its fulfillment orders that
 * still have something to ship), and which lines and quantities go in each package.
 */
export interface PlanLine {
  line_id: string;
  sku: string | null;
  name: string;
  quantity: number;
}

export type Items = Map<string, number>;

export const hasWork = (fo: FulfillmentOrder) => !['FULFILLED', 'CANCELLED'].includes(fo.status) && fo.remaining_quantity > 0;
export const skipReason = (fo: FulfillmentOrder) => (fo.status === 'CANCELLED' ? 'cancelled' : 'already fulfilled');

export interface Resolution {
  kind: 'order' | 'fulfillment-order';
  /** Every fulfillment order the id names (for an order: all of them, open or not). */
  fos: FulfillmentOrder[];
  orderId?: string;
  orderNumber?: string;
}

async function asFulfillmentOrder(api: FulfillApi, id: string): Promise<FulfillmentOrder | null> {
  try {
    return await api.getFulfillmentOrder(id);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/**
 * An order number or an id prefix -> the full id: of an order (its number, then its id prefix),
 * else of a fulfillment order (the prefixes fulfill run's own closing table shows).
 */
async function fullId(api: FulfillApi, ref: IdRef): Promise<IdRef> {
  const asFo = async (): Promise<IdRef> => ({ ...ref, kind: 'fulfillment-order', id: await api.fulfillmentOrderIdByPrefix(ref.id) });
  if (ref.kind === 'fulfillment-order') return asFo();
  const notFound = (err: unknown) => err instanceof CliError && err.exitCode === ExitCode.NOT_FOUND;
  try {
    return { ...ref, kind: 'order', id: await api.orderIdByNumber(ref.id) };
  } catch (err) {
    if (ref.kind !== 'any' || !notFound(err) || !looksLikeIdPrefix(ref.id)) throw err;
    // Neither: the order's message (`no order with number 1009 was found`) says it best.
    return asFo().catch((foErr: unknown) => Promise.reject(notFound(foErr) ? err : foErr));
  }
}

/**
 * Resolves one id. Ids from `order_id` fields, and plain ids (most often piped from
 * `fos orders list`), are tried as an order first; `fulfillment_order_id` fields as a
 * fulfillment order first. An order with no fulfillment orders resolves with `fos: []`.
 */
/** Shared by the ids of one batch: what its plain ids turned out to be. */
export interface ResolveHint {
  fulfillmentOrders: boolean;
}

export async function resolveId(api: FulfillApi, ref: IdRef, hint: ResolveHint = { fulfillmentOrders: false }): Promise<Resolution> {
  // Not an id: an order number (`fos fulfill run '#1003'`) or a short id, as tables show them.
  if (!isUuid(ref.id)) return resolveId(api, await fullId(api, ref), hint);
  // Once a plain id of a batch turned out to be a fulfillment order, the rest most likely are
  // too (a piped `fos fulfillment-orders list`): try them as one first, saving the order lookup.
  if (ref.kind === 'any' && hint.fulfillmentOrders) {
    const fo = await asFulfillmentOrder(api, ref.id);
    if (fo) return { kind: 'fulfillment-order', fos: [fo] };
    return resolveId(api, { ...ref, kind: 'order' }, hint);
  }
  if (ref.kind === 'fulfillment-order') {
    const fo = await asFulfillmentOrder(api, ref.id);
    if (fo) return { kind: 'fulfillment-order', fos: [fo] };
    throw new CliError(`fulfillment order ${ref.id} was not found`, ExitCode.NOT_FOUND);
  }
  const fos = await api.fulfillmentOrdersOf(ref.id);
  if (fos.length) return { kind: 'order', fos, orderId: ref.id, orderNumber: fos[0].order_number };
  if (ref.kind === 'any') {
    const fo = await asFulfillmentOrder(api, ref.id);
    if (fo) {
      hint.fulfillmentOrders = true;
      return { kind: 'fulfillment-order', fos: [fo] };
    }
  }
  try {
    const order = await api.getOrder(ref.id);
    return { kind: 'order', fos: [], orderId: order.id, orderNumber: order.order_number };
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const what = ref.kind === 'order' ? 'order' : 'order or fulfillment order';
  throw new CliError(`no ${what} with id ${ref.id} was found`, ExitCode.NOT_FOUND);
}

/** A plan that cannot work: a SKU not on the fulfillment order (usage), or too many units (conflict). */
export class PlanError extends CliError {}

function lineFor(fo: FulfillmentOrder, sku: string, quantity: number) {
  const lines = fo.line_items.filter((l) => l.sku === sku);
  return { line: lines.find((l) => l.remaining_quantity >= quantity), lines };
}

/**
 * `--item` across the fulfillment orders of one id: each SKU goes to the first fulfillment
 * order holding enough of it. Returns the items per fulfillment order id (orders given none
 * are left out).
 */
export function assignItems(fos: FulfillmentOrder[], items: Items): Map<string, Items> {
  const out = new Map<string, Items>();
  for (const [sku, quantity] of items) {
    const fo = fos.find((f) => lineFor(f, sku, quantity).line);
    if (!fo) {
      const remaining = fos.flatMap((f) => f.line_items.filter((l) => l.sku === sku)).reduce((s, l) => s + l.remaining_quantity, 0);
      const where = fos.length === 1 ? `fulfillment order ${fos[0].id}` : 'the fulfillment orders of this order';
      if (!fos.some((f) => f.line_items.some((l) => l.sku === sku))) {
        throw new PlanError(`--item ${sku}: no line of ${where} has SKU ${sku}`, ExitCode.USAGE);
      }
      throw new PlanError(`--item ${sku}=${quantity}: only ${remaining} of ${sku} remain to fulfill on ${where}`, ExitCode.CONFLICT);
    }
    const forFo = out.get(fo.id) ?? new Map<string, number>();
    forFo.set(sku, quantity);
    out.set(fo.id, forFo);
  }
  return out;
}

/** The package lines for one fulfillment order: everything remaining, or the given items. */
export function planLines(fo: FulfillmentOrder, items?: Items): PlanLine[] {
  if (!items) {
    return fo.line_items
      .filter((l) => l.remaining_quantity > 0)
      .map((l) => ({ line_id: l.id, sku: l.sku ?? null, name: l.name, quantity: l.remaining_quantity }));
  }
  return [...items].map(([sku, quantity]) => {
    const { line, lines } = lineFor(fo, sku, quantity);
    if (!line) {
      if (!lines.length) throw new PlanError(`--item ${sku}: fulfillment order ${fo.id} has no line with SKU ${sku}`, ExitCode.USAGE);
      const left = lines.reduce((s, l) => s + l.remaining_quantity, 0);
      throw new PlanError(`--item ${sku}=${quantity}: only ${left} remain to fulfill on fulfillment order ${fo.id}`, ExitCode.CONFLICT);
    }
    return { line_id: line.id, sku: line.sku ?? null, name: line.name, quantity };
  });
}

/**
 * The package's idempotency key: the fulfillment order, what is packed, and what remained
 * unfulfilled when it was planned. A retry (or a re-run after a failure at the label or fulfill
 * step) computes the same key, so the server hands back the package already made instead of
 * creating a second one; once a package is fulfilled the remaining quantities change, so a
 * later run for more units gets a new key.
 */
export function packageKey(fo: FulfillmentOrder, lines: PlanLine[]): string {
  const packed = lines
    .map((l) => `${l.line_id}:${l.quantity}`)
    .sort()
    .join(',');
  const remaining = fo.line_items
    .map((l) => `${l.id}:${l.remaining_quantity}`)
    .sort()
    .join(',');
  const digest = createHash('sha256').update(`${fo.id}|${packed}|${remaining}`).digest('hex').slice(0, 40);
  return `fos-fulfill-${digest}`;
}

export const describeLines = (lines: PlanLine[]) => lines.map((l) => `${l.sku ?? l.name} ×${l.quantity}`).join(', ');
