import { createPurchaseOrder } from '../../domain/purchase-orders/index.js';
import { receivePurchaseOrder } from '../../domain/purchase-orders/index.js';
import type { Db } from '../../db/types.js';
import { isUniqueViolation } from '../../db/client.js';
import { createDelegation, createTeam, createWarehouse } from '../../domain/teams/index.js';
import { createOpsProduct } from '../../domain/products/index.js';
import { createDraftOrder, type DraftOrderInput } from '../../domain/orders/index.js';
import { convertDraftOrder } from '../../domain/orders/index.js';
import { resolveShop } from '../../domain/orders/index.js';
import { acceptFulfillmentOrder } from '../../domain/fulfillment/index.js';
import { createCarrierRate } from '../../domain/fulfillment/index.js';
import { createDemoFloorUser, type DemoFloorUser } from './demo-floor.js';
import { demoCard, demoHistory } from './demo-billing.js';

// Demo warehouse for `fos serve --demo`: a merchant "Acme Outdoor" delegated to the first
// fulfiller team, two warehouses, eight stocked products, a MANUAL shop, five converted orders
// whose fulfillment orders are ACCEPTED (ready to lock, package, label and fulfill; one is on an
// AWAITING_PAYMENT hold), two carrier rates for rate shopping and a user who signs in on /floor
// (demo-floor.ts). Everything goes through the
// domain functions so the data is as consistent as real use makes it. Idempotent: nothing
// happens when the demo merchant exists; a system_state row keeps two starting servers from
// both loading it.

export const DEMO_MERCHANT = 'Acme Outdoor';

const WAREHOUSES = [
  { key: 'PDX', name: 'Portland DC', address1: '5200 N Lagoon Ave', city: 'Portland', state: 'OR', zip: '97217', country: 'US' },
  { key: 'CMH', name: 'Columbus DC', address1: '3800 Zane Trace Dr', city: 'Columbus', state: 'OH', zip: '43228', country: 'US' },
] as const;

type Stock = Partial<Record<(typeof WAREHOUSES)[number]['key'], number>>;

const PRODUCTS: { sku: string; name: string; weight: number; dims: [number, number, number]; price: number; hs: string; stock: Stock }[] = [
  {
    sku: 'ACME-TENT-2P',
    name: 'Trailhead 2-Person Tent',
    weight: 2100,
    dims: [500, 180, 180],
    price: 249,
    hs: '6306.22',
    stock: { PDX: 25, CMH: 10 },
  },
  {
    sku: 'ACME-BAG-20F',
    name: 'Summit 20°F Sleeping Bag',
    weight: 1250,
    dims: [380, 230, 230],
    price: 189,
    hs: '9404.30',
    stock: { PDX: 18 },
  },
  {
    sku: 'ACME-PAD-R4',
    name: 'Insulated Sleeping Pad R4',
    weight: 480,
    dims: [270, 110, 110],
    price: 129,
    hs: '9404.29',
    stock: { CMH: 30 },
  },
  {
    sku: 'ACME-STOVE',
    name: 'Compact Canister Stove',
    weight: 95,
    dims: [110, 80, 80],
    price: 54,
    hs: '7321.11',
    stock: { PDX: 40, CMH: 20 },
  },
  {
    sku: 'ACME-PACK-45',
    name: 'Ridge 45L Backpack',
    weight: 1150,
    dims: [620, 320, 240],
    price: 179,
    hs: '4202.92',
    stock: { PDX: 12, CMH: 12 },
  },
  {
    sku: 'ACME-LAMP-400',
    name: 'Rechargeable Headlamp 400 lm',
    weight: 86,
    dims: [90, 60, 50],
    price: 39,
    hs: '8513.10',
    stock: { CMH: 60 },
  },
  {
    sku: 'ACME-BOTTLE-1L',
    name: 'Insulated Bottle 1 L',
    weight: 410,
    dims: [280, 90, 90],
    price: 34,
    hs: '9617.00',
    stock: { PDX: 80, CMH: 50 },
  },
  { sku: 'ACME-FILTER', name: 'Squeeze Water Filter', weight: 85, dims: [160, 60, 60], price: 42, hs: '8421.21', stock: { PDX: 35 } },
];

const address = (name: string, address1: string, city: string, state: string, zip: string, phone: string) => ({
  name,
  company: null,
  address1,
  address2: null,
  city,
  state,
  country: 'US',
  zip,
  phone,
});

const ORDERS: (Pick<DraftOrderInput, 'priority' | 'payment_status' | 'shipping_method' | 'tags' | 'note'> & {
  customer: { name: string; email: string; phone: string };
  to: ReturnType<typeof address>;
  lines: [string, number][];
})[] = [
  {
    priority: 'NORMAL',
    payment_status: 'PAID',
    shipping_method: 'Ground',
    tags: ['web'],
    customer: { name: 'Maya Chen', email: 'maya.chen@example.com', phone: '+1 503 555 0142' },
    to: address('Maya Chen', '1420 SE Belmont St', 'Portland', 'OR', '97214', '+1 503 555 0142'),
    lines: [
      ['ACME-TENT-2P', 1],
      ['ACME-BAG-20F', 1],
    ],
  },
  {
    priority: 'HIGH',
    payment_status: 'PAID',
    shipping_method: 'Expedited',
    tags: ['web', 'repeat-customer'],
    customer: { name: 'Jordan Alvarez', email: 'jordan.alvarez@example.com', phone: '+1 614 555 0187' },
    to: address('Jordan Alvarez', '88 E Broad St', 'Columbus', 'OH', '43215', '+1 614 555 0187'),
    lines: [
      ['ACME-LAMP-400', 2],
      ['ACME-PAD-R4', 1],
    ],
  },
  {
    priority: 'CRITICAL',
    payment_status: 'PAID',
    shipping_method: 'Overnight',
    tags: ['expedition', 'b2b'],
    note: 'Expedition departs Friday — ship today.',
    customer: { name: 'Sam Okafor', email: 'sam@northridge-guides.example', phone: '+1 303 555 0119' },
    to: address('Sam Okafor', '2100 Broadway', 'Boulder', 'CO', '80302', '+1 303 555 0119'),
    lines: [
      ['ACME-PACK-45', 1],
      ['ACME-FILTER', 1],
      ['ACME-LAMP-400', 1],
    ],
  },
  {
    priority: 'LOW',
    payment_status: 'PAID',
    shipping_method: 'Ground',
    tags: ['wholesale'],
    customer: { name: 'Riley Brooks', email: 'riley.brooks@example.com', phone: '+1 317 555 0166' },
    to: address('Riley Brooks', '501 Massachusetts Ave', 'Indianapolis', 'IN', '46204', '+1 317 555 0166'),
    lines: [
      ['ACME-BOTTLE-1L', 2],
      ['ACME-LAMP-400', 1],
    ],
  },
  {
    priority: 'NORMAL',
    payment_status: 'PENDING',
    shipping_method: 'Ground',
    tags: ['phone-order'],
    note: 'Customer pays by invoice; hold until paid.',
    customer: { name: 'Priya Natarajan', email: 'priya.n@example.com', phone: '+1 206 555 0133' },
    to: address('Priya Natarajan', '400 Pine St', 'Seattle', 'WA', '98101', '+1 206 555 0133'),
    lines: [
      ['ACME-STOVE', 1],
      ['ACME-TENT-2P', 1],
    ],
  },
];

export interface DemoResult {
  loaded: boolean;
  merchantTeamId?: string;
  orderIds?: string[];
  /** The /floor sign-in made for the demo (its password is shown once). */
  floor?: DemoFloorUser;
}

export async function loadDemo(db: Db): Promise<DemoResult> {
  if (await db.prisma.team.findFirst({ where: { kind: 'MERCHANT', name: DEMO_MERCHANT } })) return { loaded: false };
  try {
    await db.prisma.systemState.create({ data: { id: 'demo', value: { at: new Date().toISOString() } } });
  } catch (err) {
    if (isUniqueViolation(err)) return { loaded: false }; // loaded (or being loaded) by another process
    throw err;
  }
  try {
    return await load(db);
  } catch (err) {
    await db.prisma.systemState.delete({ where: { id: 'demo' } }).catch(() => undefined);
    throw err;
  }
}

/** The demo merchant's rate card, so its receipts, fulfills and storage bill (docs/charges.md). */
export const DEMO_RATE_CARD = {
  id: 'demo-standard',
  name: 'Acme Outdoor standard',
  version_id: 'demo-v1',
  semantic_version: '1.0.0',
  currency: 'USD',
  storage: { rate_per_unit: { MONTHLY: 0.4 } },
  receiving: { rate_per_unit: 0.25 },
  shipping: { fee_per_package: 2.5, markup_percent: 10 },
};

async function load(db: Db): Promise<DemoResult> {
  const fulfiller =
    (await db.prisma.team.findFirst({ where: { kind: 'FULFILLER' }, orderBy: { created_at: 'asc' } })) ??
    (await createTeam(db, { name: 'My Warehouse', kind: 'FULFILLER' }));
  const merchant = await createTeam(db, { name: DEMO_MERCHANT, kind: 'MERCHANT', measurement_system: 'METRIC' });
  const delegation = await createDelegation(db, {
    merchant_team_id: merchant.id,
    fulfiller_team_id: fulfiller.id,
    rate_card: DEMO_RATE_CARD,
  });
  // The versioned card prices the merchant from here on (the JSON card above is its fallback).
  const billing = { fulfillerTeamId: fulfiller.id, merchantTeamId: merchant.id, delegationId: delegation.id };
  await demoCard(db, billing);

  const warehouseId: Record<string, string> = {};
  for (const { key, ...w } of WAREHOUSES) warehouseId[key] = (await createWarehouse(db, { team_id: fulfiller.id, ...w })).id;

  const caller = { teamId: fulfiller.id, teamKind: 'FULFILLER' as const, measurementSystem: fulfiller.measurement_system };
  for (const p of PRODUCTS) {
    const created = await createOpsProduct(db, caller, {
      merchant_team_id: merchant.id,
      name: p.name,
      type: 'STANDARD',
      sku: p.sku,
      image_url: `https://images.example.com/acme/${p.sku.toLowerCase()}.jpg`,
      weight: p.weight,
      length: p.dims[0],
      width: p.dims[1],
      height: p.dims[2],
      cost_price: Math.round(p.price * 0.45 * 100) / 100,
      cost_currency: 'USD',
      customs_value: p.price,
      customs_value_currency: 'USD',
      customs_description: p.name,
      country_of_origin: 'VN',
      hs_code: p.hs,
      category: 'Outdoor',
    });
    const productId = String(created.id);
    for (const [key, onHand] of Object.entries(p.stock)) {
      if (onHand === 0) await db.prisma.inventoryLevel.create({ data: { product_id: productId, warehouse_id: warehouseId[key] } });
    }
  }

  // Opening stock arrives the way real stock does: one purchase order per warehouse, received in
  // full, so the ledger explains every unit and `fos purchase-orders list` has something to show.
  const actor = { ...caller, keyId: null };
  for (const { key } of WAREHOUSES) {
    const id = warehouseId[key];
    const lines = PRODUCTS.filter((p) => (p.stock[key] ?? 0) > 0).map((p) => ({ sku: p.sku, quantity: p.stock[key]! }));
    if (!lines.length) continue;
    const po = await createPurchaseOrder(db, actor, {
      warehouse_id: id,
      merchant_team_id: merchant.id,
      reference: `OPENING-${key}`,
      lines,
    });
    await receivePurchaseOrder(db, actor, po.id, { lines, note: 'opening balance' });
  }

  const shop = await resolveShop(db, merchant.id, fulfiller.id, { shop: { name: 'Acme Outdoor Direct', shop_type: 'MANUAL' } });
  const priceOf = new Map(PRODUCTS.map((p) => [p.sku, p.price]));
  const orderIds: string[] = [];
  for (const o of ORDERS) {
    const draft = await createDraftOrder(db, fulfiller.id, {
      merchant_team_id: merchant.id,
      shop_id: shop.id,
      line_items: o.lines.map(([sku, quantity]) => ({ sku, quantity, price: priceOf.get(sku)! })),
      shipping_address: o.to,
      billing_address: o.to,
      customer: o.customer,
      priority: o.priority,
      payment_status: o.payment_status,
      shipping_method: o.shipping_method,
      tags: o.tags,
      note: o.note,
      currency: 'USD',
      total_shipping: o.shipping_method === 'Overnight' ? 39 : o.shipping_method === 'Expedited' ? 18 : 8,
    });
    const order = await convertDraftOrder(db, fulfiller.id, draft.id);
    orderIds.push(order.id);
  }
  const fos = await db.prisma.fulfillmentOrder.findMany({ where: { order_id: { in: orderIds } }, orderBy: { created_at: 'asc' } });
  for (const fo of fos) await acceptFulfillmentOrder(db, fulfiller.id, fo.id);

  await createCarrierRate(db, fulfiller.id, {
    carrier_id: 'usps',
    carrier_name: 'USPS',
    service_id: 'usps_ground_advantage',
    service_name: 'Ground Advantage',
    amount: 7.45,
    currency: 'USD',
    per_unit_weight: 0.002,
    weight_unit: 'G',
    max_weight: 31_750,
    countries: ['US'],
    estimated_days: 4,
  });
  await createCarrierRate(db, fulfiller.id, {
    carrier_id: 'ups',
    carrier_name: 'UPS',
    service_id: 'ups_2nd_day_air',
    service_name: '2nd Day Air',
    amount: 18.9,
    currency: 'USD',
    per_unit_weight: 0.004,
    weight_unit: 'G',
    max_weight: 68_000,
    countries: ['US', 'CA'],
    estimated_days: 2,
    delivery_date_guaranteed: true,
  });
  const stocked = WAREHOUSES.map((w) => ({
    id: warehouseId[w.key],
    name: w.name,
    units: PRODUCTS.reduce((n, p) => n + (p.stock[w.key] ?? 0), 0),
  }));
  await demoHistory(db, { ...billing, warehouses: stocked });
  const floor = await createDemoFloorUser(db, fulfiller.id);
  return { loaded: true, merchantTeamId: merchant.id, orderIds, floor };
}
