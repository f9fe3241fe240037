import type { Db, DraftOrder, DraftOrderLineItem, TxClient } from '../../db/types.js';
import { teamNames } from '../names/index.js';
import { conflict, invalid, notFound } from '../errors.js';
import { pageArgs, toPage, enumList, type PageRequest } from '../pagination.js';
import { normalizeAddress, type Address } from './address.js';
import {
  DRAFT_STATUSES,
  METADATA_KEYS,
  ORDER_CONFIG_DEFAULTS,
  type OrderConfig,
  type OrderMetadata,
  type Priority,
  type ShopType,
} from '../../contract/orders-enums.js';
import { resolveMerchant, resolveProducts, resolveShop } from './reach.js';
import { round2 } from './totals.js';
import { personSelection, selectionView, type SelectionEdit } from './selection.js';
import { findDraftPage, findOrderIdByNumber, findShops, findTeamDraft, insertDraft } from './store/drafts.js';

// Draft orders: an order being put together (by hand, or by an integration through the spec's
// create-draft-order path). Nothing is reserved until conversion (convert.ts).

export interface DraftLineInput {
  product_id?: string;
  sku?: string;
  quantity: number;
  price: number;
  applied_discount_amount?: number;
}

/** The carrier selection a person gives on the draft (selection.ts), carried to the order at conversion. */
export interface DraftOrderInput extends SelectionEdit {
  merchant_team_id?: string;
  shop_id?: string;
  shop?: { name: string; shop_type?: ShopType };
  line_items: DraftLineInput[];
  shipping_address: Address;
  billing_address?: Address | null;
  customer?: { email?: string | null; name?: string | null; phone?: string | null } | null;
  shipping_method?: string | null;
  priority?: Priority;
  tags?: string[];
  note?: string | null;
  currency?: string;
  payment_status?: 'PENDING' | 'PAID';
  order_number?: string;
  deliver_by?: string | null;
  metadata?: Partial<OrderMetadata>;
  is_fragile?: boolean;
  total_tax?: number;
  total_shipping?: number;
  config?: Partial<OrderConfig>;
}

/** The order-level part of a draft, stored as DraftOrder.payload (line items have their own rows). */
export interface DraftPayload {
  order_number: string | null;
  priority: Priority;
  payment_status: 'PENDING' | 'PAID';
  currency: string;
  note: string | null;
  tags: string[];
  shipping_method: string | null;
  deliver_by: string | null;
  shipping_address: ReturnType<typeof normalizeAddress>;
  billing_address: ReturnType<typeof normalizeAddress>;
  customer: { email: string | null; name: string | null; phone: string | null } | null;
  metadata: OrderMetadata;
  is_fragile: boolean;
  total_tax: number;
  total_shipping: number;
  config: OrderConfig;
  /** A person's carrier selection, with person_set naming its fields (absent on drafts made before it existed). */
  carrier_selection?: Record<string, unknown> | null;
}

const blank = (v: string | null | undefined) => (typeof v === 'string' && v.trim() ? v.trim() : null);

export async function createDraftOrder(db: Db, fulfillerTeamId: string, input: DraftOrderInput) {
  const merchant = await resolveMerchant(db, fulfillerTeamId, input.merchant_team_id);
  input.line_items.forEach((l, i) => {
    if ((l.applied_discount_amount ?? 0) > l.price * l.quantity) {
      throw invalid(`body.line_items.${i}.applied_discount_amount`, 'must not exceed price × quantity');
    }
  });
  const products = await resolveProducts(db, merchant.id, input.line_items);
  const orderNumber = blank(input.order_number);
  if (orderNumber && (await findOrderIdByNumber(db.prisma, fulfillerTeamId, orderNumber))) {
    throw conflict(`Order number ${orderNumber} is already used by another order of this team.`);
  }
  const shop = await resolveShop(db, merchant.id, fulfillerTeamId, input);
  const selection = await personSelection(db.prisma as unknown as TxClient, fulfillerTeamId, null, input);

  const metadata = Object.fromEntries(METADATA_KEYS.map((k) => [k, input.metadata?.[k] ?? []])) as OrderMetadata;
  const payload: DraftPayload = {
    order_number: orderNumber,
    priority: input.priority ?? 'NORMAL',
    payment_status: input.payment_status ?? 'PENDING',
    currency: input.currency ?? 'USD',
    note: blank(input.note),
    tags: [...new Set((input.tags ?? []).map((t) => t.trim()).filter(Boolean))],
    shipping_method: blank(input.shipping_method),
    deliver_by: input.deliver_by ? new Date(input.deliver_by).toISOString() : null,
    shipping_address: normalizeAddress(input.shipping_address),
    billing_address: normalizeAddress(input.billing_address),
    customer: input.customer
      ? { email: blank(input.customer.email), name: blank(input.customer.name), phone: blank(input.customer.phone) }
      : null,
    metadata,
    is_fragile: input.is_fragile ?? false,
    total_tax: input.total_tax ?? 0,
    total_shipping: input.total_shipping ?? 0,
    config: { ...ORDER_CONFIG_DEFAULTS, ...(input.config ?? {}) },
    carrier_selection: selection,
  };
  const draft = await insertDraft(
    db.prisma,
    { merchant_team_id: merchant.id, fulfiller_team_id: fulfillerTeamId, shop_id: shop.id, payload: payload as never },
    input.line_items.map((l, i) => ({
      product_id: products[i].id,
      sku: products[i].sku,
      name: products[i].name,
      quantity: l.quantity,
      price: l.price,
      applied_discount_amount: l.applied_discount_amount ?? 0,
    })),
  );
  return (await draftViews(db, [draft]))[0];
}

export async function getDraftOrder(db: Db, fulfillerTeamId: string, id: string) {
  const draft = await findTeamDraft(db.prisma, fulfillerTeamId, id);
  if (!draft) throw notFound('Draft order', id);
  return (await draftViews(db, [draft]))[0];
}

export async function listDraftOrders(db: Db, fulfillerTeamId: string, q: PageRequest & { status?: string; order?: 'asc' | 'desc' }) {
  const statuses = enumList('query.status', q.status, DRAFT_STATUSES);
  const dir = q.order ?? 'desc';
  const orderBy = [{ created_at: dir }, { id: dir }];
  const rows = await findDraftPage(
    db.prisma,
    pageArgs(q, { fulfiller_team_id: fulfillerTeamId, ...(statuses ? { status: { in: statuses as never } } : {}) }, orderBy),
  );
  const page = toPage(rows, q, undefined, orderBy);
  return { data: await draftViews(db, page.data), meta: page.meta };
}

type DraftWithLines = DraftOrder & { line_items: DraftOrderLineItem[] };

/** Response shape of a draft order (docs/orders.md); teams and shops loaded in two queries. */
export async function draftViews(db: Db, drafts: DraftWithLines[]) {
  const shopIds = [...new Set(drafts.map((d) => d.shop_id).filter((v): v is string => !!v))];
  const [teamName, shops] = await Promise.all([
    teamNames(
      db.prisma,
      drafts.flatMap((d) => [d.merchant_team_id, d.fulfiller_team_id]),
    ),
    shopIds.length ? findShops(db.prisma, shopIds) : [],
  ]);
  const shopOf = new Map(shops.map((s) => [s.id, s]));
  return drafts.map((d) => {
    const p = d.payload as unknown as DraftPayload;
    const shop = d.shop_id ? shopOf.get(d.shop_id) : undefined;
    const subtotal = round2(d.line_items.reduce((s, l) => s + l.price * l.quantity, 0));
    const discount = round2(d.line_items.reduce((s, l) => s + l.applied_discount_amount, 0));
    return {
      id: d.id,
      status: d.status,
      order_id: d.order_id,
      order_number: p.order_number,
      merchant_team_id: d.merchant_team_id,
      merchant_team_name: teamName.get(d.merchant_team_id) ?? null,
      fulfiller_team_id: d.fulfiller_team_id,
      fulfiller_team_name: teamName.get(d.fulfiller_team_id) ?? null,
      shop_id: d.shop_id,
      shop_name: shop?.name ?? null,
      shop_type: shop?.shop_type ?? null,
      priority: p.priority,
      payment_status: p.payment_status,
      currency: p.currency,
      note: p.note,
      tags: p.tags,
      shipping_method: p.shipping_method,
      deliver_by: p.deliver_by ? new Date(p.deliver_by) : null,
      shipping_address: p.shipping_address,
      billing_address: p.billing_address,
      customer: p.customer,
      metadata: p.metadata,
      is_fragile: p.is_fragile,
      ...selectionView(p.carrier_selection),
      line_items: d.line_items.map((l) => ({
        id: l.id,
        product_id: l.product_id,
        sku: l.sku,
        name: l.name,
        quantity: l.quantity,
        price: l.price,
        applied_discount_amount: l.applied_discount_amount,
      })),
      subtotal_price: subtotal,
      total_discount: discount,
      total_tax: p.total_tax,
      total_shipping: p.total_shipping,
      total_price: round2(subtotal - discount + p.total_tax + p.total_shipping),
      created_at: d.created_at,
      updated_at: d.updated_at,
    };
  });
}
