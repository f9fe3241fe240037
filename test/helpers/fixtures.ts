// Fulfillment test fixtures: a stocked order with a fulfillment order, written straight into
// the database (so tests control every quantity and can set up states the API refuses), plus
// `convertedOrder` that goes through the orders area's draft -> convert API instead.
//
//   const f = await fulfillmentFixture(t, { lines: [{ sku: 'MUG', quantity: 3 }], status: 'ACCEPTED' });
//   f.fo.id, f.foLines[0].remaining_quantity, f.products[0].id, f.warehouse.id, f.order.id

import type { TestApp } from './app.js';

export interface FixtureLine {
  sku?: string;
  quantity: number;
  /** Inventory on hand in the fixture's warehouse (default quantity + 10). */
  onHand?: number;
  /** Inventory committed (default quantity, as conversion would have committed it). */
  committed?: number;
  /** Reuse an existing product (then no inventory row is created unless onHand is given). */
  productId?: string;
  weight?: number;
}

export interface FixtureOptions {
  lines?: FixtureLine[];
  status?: 'PENDING' | 'ACCEPTED' | 'IN_PROGRESS' | 'FULFILLED';
  merchantTeamId?: string;
  warehouseId?: string;
  fulfillerTeamId?: string;
  /** An active AWAITING_PAYMENT hold on the order. */
  hold?: boolean;
  shippingAddress?: Record<string, string | null>;
}

export const SHIP_TO = {
  name: 'Grace Hopper',
  company: 'Navy Yard',
  address1: '1 Compiler Road',
  address2: null,
  city: 'Arlington',
  state: 'VA',
  country: 'US',
  zip: '22201',
  phone: '+1 703 555 0100',
};

let seq = 0;
const merchants = new WeakMap<TestApp, Promise<string>>();
const warehouses = new WeakMap<TestApp, Promise<string>>();

/** The one delegated merchant team of a test app (created on first use). */
export function fixtureMerchant(t: TestApp): Promise<string> {
  if (!merchants.has(t))
    merchants.set(
      t,
      t.merchant().then((m) => m.teamId),
    );
  return merchants.get(t)!;
}

export function fixtureWarehouse(t: TestApp): Promise<string> {
  if (!warehouses.has(t)) {
    warehouses.set(
      t,
      t.db.prisma.warehouse
        .create({
          data: {
            team_id: t.teamId,
            name: 'Main Warehouse',
            address1: '500 Dock St',
            city: 'Reno',
            state: 'NV',
            zip: '89501',
            country: 'US',
          },
        })
        .then((w) => w.id),
    );
  }
  return warehouses.get(t)!;
}

export async function fulfillmentFixture(t: TestApp, opts: FixtureOptions = {}) {
  const db = t.db.prisma;
  const n = ++seq;
  const fulfillerTeamId = opts.fulfillerTeamId ?? t.teamId;
  const merchantTeamId = opts.merchantTeamId ?? (await fixtureMerchant(t));
  const warehouseId = opts.warehouseId ?? (await fixtureWarehouse(t));
  const lines = opts.lines ?? [{ quantity: 2 }];

  const products = [];
  for (const [i, l] of lines.entries()) {
    const sku = l.sku ?? `SKU-${n}-${i + 1}`;
    const product = l.productId
      ? await db.product.findUniqueOrThrow({ where: { id: l.productId } })
      : await db.product.create({
          data: {
            team_id: merchantTeamId,
            merchant_team_id: merchantTeamId,
            fulfiller_team_id: fulfillerTeamId,
            name: `Product ${sku}`,
            sku,
            measurement_unit: 'MM',
            weight_unit: 'G',
            weight: l.weight ?? 250,
            image_url: `https://img.example/${sku}.jpg`,
            customs_value: 12.5,
            customs_value_currency: 'USD',
            hs_code: '6912.00',
            country_of_origin: 'PT',
          },
        });
    if (!l.productId || l.onHand !== undefined) {
      await db.inventoryLevel.upsert({
        where: { product_id_warehouse_id: { product_id: product.id, warehouse_id: warehouseId } },
        create: {
          product_id: product.id,
          warehouse_id: warehouseId,
          on_hand: l.onHand ?? l.quantity + 10,
          committed: l.committed ?? l.quantity,
        },
        update: { on_hand: { increment: l.onHand ?? 0 }, committed: { increment: l.committed ?? l.quantity } },
      });
    }
    products.push(product);
  }

  const order = await db.order.create({
    data: {
      order_number: `#${5000 + n}`,
      merchant_team_id: merchantTeamId,
      fulfiller_team_id: fulfillerTeamId,
      status: 'OPEN',
      payment_status: 'PAID',
      tags: [],
      line_item_image_urls: [],
      shipping_address: opts.shippingAddress ?? SHIP_TO,
      customer_email: 'grace@example.com',
      customer_name: 'Grace Hopper',
      core_line_item_count: lines.reduce((s, l) => s + l.quantity, 0),
      unique_core_line_item_count: lines.length,
    },
  });
  const orderLines = [];
  for (const [i, l] of lines.entries()) {
    orderLines.push(
      await db.orderLineItem.create({
        data: {
          order_id: order.id,
          kind: 'CORE',
          product_id: products[i].id,
          sku: products[i].sku,
          name: products[i].name,
          remaining_quantity: l.quantity,
          total_quantity: l.quantity,
        },
      }),
    );
  }
  if (opts.hold) {
    await db.orderFulfillmentHold.create({ data: { order_id: order.id, reason: 'AWAITING_PAYMENT', active: true } });
  }
  const status = opts.status ?? 'PENDING';
  const fo = await db.fulfillmentOrder.create({
    data: {
      order_id: order.id,
      warehouse_id: warehouseId,
      fulfiller_team_id: fulfillerTeamId,
      merchant_team_id: merchantTeamId,
      status,
      request_status: status === 'PENDING' ? 'UNSUBMITTED' : 'ACCEPTED',
    },
  });
  const foLines = [];
  for (const [i, l] of lines.entries()) {
    foLines.push(
      await db.fulfillmentOrderLineItem.create({
        data: {
          fulfillment_order_id: fo.id,
          order_line_item_id: orderLines[i].id,
          product_id: products[i].id,
          sku: products[i].sku,
          name: products[i].name,
          image_url: products[i].image_url,
          quantity: l.quantity,
          remaining_quantity: l.quantity,
        },
      }),
    );
  }
  return { merchantTeamId, warehouseId, products, order, orderLines, fo, foLines };
}

export type Fixture = Awaited<ReturnType<typeof fulfillmentFixture>>;

/** A fulfillment order built by the orders area: draft -> convert over HTTP (paid, so no hold). */
export async function convertedOrder(t: TestApp, token: string, lines: Array<{ sku: string; quantity: number; onHand: number }>) {
  const merchantTeamId = await fixtureMerchant(t);
  const warehouseId = await fixtureWarehouse(t);
  for (const l of lines) {
    const p = await t.db.prisma.product.create({
      data: {
        team_id: merchantTeamId,
        merchant_team_id: merchantTeamId,
        fulfiller_team_id: t.teamId,
        name: `Product ${l.sku}`,
        sku: l.sku,
        measurement_unit: 'MM',
        weight_unit: 'G',
        weight: 300,
      },
    });
    await t.db.prisma.inventoryLevel.create({ data: { product_id: p.id, warehouse_id: warehouseId, on_hand: l.onHand } });
  }
  const draft = await t.call('POST', '/v1/ops/draft-orders', {
    token,
    body: {
      merchant_team_id: merchantTeamId,
      payment_status: 'PAID',
      shipping_address: SHIP_TO,
      customer: { email: 'grace@example.com', name: 'Grace Hopper' },
      line_items: lines.map((l) => ({ sku: l.sku, quantity: l.quantity, price: 10 })),
    },
  });
  if (draft.statusCode !== 201) throw new Error(`draft create failed: ${draft.statusCode} ${draft.body}`);
  const order = await t.call('POST', `/v1/ops/draft-orders/${draft.json().id}/convert`, { token });
  if (order.statusCode !== 200) throw new Error(`convert failed: ${order.statusCode} ${order.body}`);
  return { order: order.json(), merchantTeamId, warehouseId };
}
