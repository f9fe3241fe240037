import type { ApiClient } from '../../client/api-client.js';
import { ApiError } from '../../client/errors.js';
import { CliError, ExitCode, UsageError } from '../errors.js';

/**
 * The human keys of records (docs/cli.md "Short ids and names"), each found with a list filter of
 * the API: the records a key names exactly, as { id, label } (label: what a candidate list shows).
 * refs.ts decides what one, none or several mean.
 */
export interface Named {
  id: string;
  label: string;
}
type Row = Record<string, unknown> & { id: string };

/**
 * Several records match: the one-line error, then the candidates on their own lines (at most 10),
 * id first so they can be pasted: stderr, exit 2 (a UsageError).
 */
export class AmbiguousRef extends UsageError {
  constructor(line: string, rows: Named[]) {
    const shown = rows.slice(0, 10).map((r) => `  ${r.id}${r.label ? `  ${r.label}` : ''}`);
    if (rows.length > 10) shown.push(`  … and ${rows.length - 10} more`);
    super(`${line}\n${shown.join('\n')}`);
  }
}
const PREFIX_RE = /^[0-9a-f-]{4,35}$/i;
/** Text that can be a prefix of an id (hex digits and dashes, 4 to 35 of them). */
export const looksLikeIdPrefix = (s: string) => PREFIX_RE.test(s.trim()) && /[0-9a-f]/i.test(s);

type Page = { data?: Row[]; meta?: { next_cursor?: string | null } };

const bare = (n: string) => n.trim().replace(/^#/, '').toLowerCase();
const OPEN_FO = ['PENDING', 'ACCEPTED', 'IN_PROGRESS'];
const MAX_PAGES = 5;

/** Rows of a filtered list (pages followed while full, at most MAX_PAGES) that `match` keeps. */
async function matching(client: ApiClient, list: string, query: Record<string, unknown>, match: (r: Row) => boolean): Promise<Row[]> {
  const out: Row[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await client.get<Page>(list, { ...query, limit: 100, ...(cursor ? { cursor } : {}) });
    out.push(...(page?.data ?? []).filter(match));
    cursor = page?.meta?.next_cursor ?? undefined;
    if (!cursor || (page?.data?.length ?? 0) < 100) break;
  }
  return out;
}

/** Exact matches, else (none) the same ignoring letter case: `nw-gift` finds NW-GIFT. */
function exactFirst(rows: Row[], fields: string[], text: string): Row[] {
  const exact = rows.filter((r) => fields.some((f) => r[f] === text));
  return exact.length
    ? exact
    : rows.filter((r) => fields.some((f) => typeof r[f] === 'string' && r[f].toLowerCase() === text.toLowerCase()));
}

/** Products by SKU or barcode: the list's search (name, SKU or barcode, spec 4.2), kept when one of them is the text. */
export async function productsByKey(client: ApiClient, text: string, list = '/ops/products'): Promise<Named[]> {
  const rows = await matching(client, list, { search: text }, () => true);
  return exactFirst(rows, ['sku', 'barcode'], text).map((r) => ({ id: r.id, label: String(r.sku ?? r.barcode ?? r.name ?? '') }));
}

/**
 * Orders by number (`1007`, `#1007`, case ignored): the orders list's search (order-number prefix,
 * spec 4.5) kept on an exact match. The search needs 3 characters.
 */
export async function ordersByNumber(client: ApiClient, text: string): Promise<Named[]> {
  const number = bare(text);
  if (number.length < 3) {
    throw new UsageError(
      `"${text}" is not an order id, and order numbers are searched from 3 characters: pass the order id (fos orders list --json id,order_number)`,
    );
  }
  const page = await client.get<Page>('/ops/orders/list', { search: number, limit: 100, order_by: 'order_number', order: 'asc' });
  return (page?.data ?? [])
    .filter((o) => typeof o.order_number === 'string' && bare(o.order_number) === number)
    .map((o) => ({ id: o.id, label: `${String(o.order_number)}${o.merchant_team_name ? ` (${String(o.merchant_team_name)})` : ''}` }));
}

const foLabel = (f: Row) => `${String(f.order_number)} ${String(f.status)} at ${String(f.warehouse_name ?? f.warehouse_id)}`;

/** The fulfillment orders of these orders; when there are several, the open ones (a split or moved order keeps closed ones). */
async function fulfillmentOrdersOf(client: ApiClient, orders: Named[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const o of orders) rows.push(...(await matching(client, '/ops/fulfillment-orders', { order_id: o.id }, () => true)));
  const open = rows.filter((f) => OPEN_FO.includes(String(f.status)));
  return rows.length > 1 && open.length ? open : rows;
}

/** Fulfillment orders by their order's number. */
export async function fulfillmentOrdersByNumber(client: ApiClient, text: string): Promise<Named[]> {
  return (await fulfillmentOrdersOf(client, await ordersByNumber(client, text))).map((f) => ({ id: f.id, label: foLabel(f) }));
}

/** Packages by their order's number: the packages of its fulfillment orders (the not cancelled ones when there are several). */
export async function packagesByNumber(client: ApiClient, text: string): Promise<Named[]> {
  const rows: Row[] = [];
  for (const fo of await fulfillmentOrdersOf(client, await ordersByNumber(client, text))) {
    rows.push(...(await matching(client, '/ops/packages', { fulfillment_order_id: fo.id }, () => true)));
  }
  const live = rows.filter((p) => p.status !== 'CANCELLED');
  return (rows.length > 1 && live.length ? live : rows).map((p) => ({
    id: p.id,
    label: `${String(p.name ?? 'package')} ${String(p.status)}${p.tracking_number ? ` ${String(p.tracking_number)}` : ''}`,
  }));
}

/** Picking sessions by name, among the 100 most recent (sessions are a day's work; the list has no name filter). */
export async function sessionsByName(client: ApiClient, text: string): Promise<Named[]> {
  const page = await client.get<Page>('/ops/picking-sessions', { limit: 100, order: 'desc' });
  return exactFirst(page?.data ?? [], ['name'], text).map((s) => ({ id: s.id, label: String(s.name) }));
}

/** Roles by name: a team has few (names unique in it), read page by page and matched exactly. */
export async function rolesByName(client: ApiClient, text: string): Promise<Named[]> {
  const out: Named[] = [];
  for await (const r of client.paginate<Row>('/roles')) if (r.name === text) out.push({ id: r.id, label: String(r.name) });
  return out;
}

/** Purchase orders by reference (the PO number on the paperwork at the dock): the list's reference filter. */
export async function purchaseOrdersByReference(client: ApiClient, text: string): Promise<Named[]> {
  const rows = await matching(client, '/ops/purchase-orders', { reference: text }, () => true);
  return exactFirst(rows, ['reference'], text).map((r) => ({ id: r.id, label: `${String(r.reference)} (${String(r.status)})` }));
}

/**
 * Merchants this team fulfills for, by name (exact, else ignoring case) or merchant team id
 * prefix: their delegations (a team has a few), the merchant's team id as the id.
 */
export async function merchantsByName(client: ApiClient, text: string): Promise<Named[]> {
  const rows: Row[] = [];
  try {
    for await (const d of client.paginate<Row>('/ops/delegations')) rows.push({ ...d, id: String(d.merchant_team_id) });
  } catch (err) {
    // A key without READ_CHARGES (floor staff) cannot read the merchants: say what to pass instead.
    if (err instanceof ApiError && err.status === 403) {
      throw new CliError(
        `cannot look up the merchant "${text}": this key may not read the merchants (GET /v1/ops/delegations needs READ_CHARGES); pass the merchant team id (an order of theirs shows it: fos orders get <number> --json merchant_team_id,merchant_team_name)`,
        ExitCode.AUTH,
      );
    }
    throw err;
  }
  const named = exactFirst(rows, ['merchant_team_name'], text);
  const p = text.trim().toLowerCase();
  const found = named.length ? named : looksLikeIdPrefix(p) ? rows.filter((r) => r.id.startsWith(p)) : [];
  return found.map((r) => ({ id: r.id, label: String(r.merchant_team_name ?? '') }));
}

/** Locations by name or barcode: the list's name filter (names starting with it), kept on an exact match. */
export async function locationsByName(client: ApiClient, text: string): Promise<Named[]> {
  const rows = await matching(client, '/ops/locations', { name: text }, () => true);
  return exactFirst(rows, ['name', 'barcode'], text).map((l) => ({
    id: l.id,
    label: `${String(l.name)} in warehouse ${String(l.warehouse_id)}`,
  }));
}

/** The open fulfillment orders picked into a tote (its name or id). */
export async function fulfillmentOrdersInTote(client: ApiClient, text: string): Promise<Named[]> {
  const page = await client.get<Page>('/ops/fulfillment-orders', { tote: text, status: 'ACCEPTED,IN_PROGRESS', limit: 100 });
  return (page?.data ?? []).map((f) => ({ id: f.id, label: `${foLabel(f)}, tote ${text}` }));
}

/**
 * A hold of an order (`fos orders release 1007 [hold]`): its id or id prefix, its reason
 * (`fraud_review`), or nothing for the order's only active hold. Active holds are preferred.
 */
export async function holdIdOf(client: ApiClient, orderId: string, text?: string): Promise<string> {
  const res = await client.get<{ data: Row[] }>(`/ops/orders/${encodeURIComponent(orderId)}/holds`);
  const holds = res?.data ?? [];
  const active = holds.filter((h) => h.active === true);
  const label = (h: Row) => `${String(h.reason)}${h.active ? '' : ' (released)'}${h.reason_notes ? `: ${String(h.reason_notes)}` : ''}`;
  const value = text?.trim().toLowerCase();
  let found: Row[];
  if (!value) found = active;
  else {
    const byReason = holds.filter((h) => String(h.reason).toLowerCase() === value);
    const byId = holds.filter((h) => h.id.toLowerCase().startsWith(value));
    found = byReason.length ? byReason : byId;
    if (found.length > 1 && found.some((h) => h.active === true)) found = found.filter((h) => h.active === true);
  }
  if (found.length === 1) return found[0].id;
  if (!found.length) {
    const what = value ? `no hold ${text} (a reason or an id)` : 'no active hold';
    throw new CliError(`the order has ${what}${holds.length ? `; its holds: ${holds.map(label).join(', ')}` : ''}`, ExitCode.NOT_FOUND);
  }
  const rows = found.map((h) => ({ id: h.id, label: label(h) }));
  throw new AmbiguousRef(
    `the order has ${found.length} ${value ? `holds matching ${text}` : 'active holds'}: name one (its reason or id)`,
    rows,
  );
}
