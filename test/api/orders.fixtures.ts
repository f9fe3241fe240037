// Shared setup of the orders tests: a fulfiller team (the bootstrap one) with two warehouses,
// a delegated merchant, and helpers to add stocked products and make/convert drafts over HTTP.
// Products and stock are written directly so these tests do not depend on the products API.

import { receiveStock } from '../../src/domain/inventory/receive.js';
import { testApp, type TestApp } from '../helpers/app.js';
import type { AppConfig } from '../../src/server/app.js';
import { createWarehouse } from '../../src/domain/teams/teams.js';

export interface World {
  t: TestApp;
  token: string;
  merchantId: string;
  east: string;
  west: string;
  call(method: string, url: string, body?: unknown, token?: string): ReturnType<TestApp['call']>;
  product(sku: string, stock?: Record<string, number>, extra?: { image_url?: string; merchantId?: string }): Promise<string>;
  draft(body: Record<string, unknown>): Promise<any>;
  order(body: Record<string, unknown>): Promise<any>;
  level(productId: string, warehouseId: string): Promise<{ on_hand: number; committed: number } | null>;
}

export const ADDRESS = {
  name: 'Ada Lovelace',
  company: null,
  address1: '12 Analytical Way',
  address2: 'Suite 3',
  city: 'Portland',
  state: 'OR',
  country: 'US',
  zip: '97201',
  phone: '+1 503 555 0100',
};

export async function world(config: AppConfig = {}): Promise<World> {
  const t = await testApp(config);
  const { token } = await t.key({ tier: 4 });
  const merchant = await t.merchant();
  const east = (await createWarehouse(t.db, { team_id: t.teamId, name: 'East' })).id;
  await new Promise((r) => setTimeout(r, 5)); // distinct created_at: East is the preferred warehouse on ties
  const west = (await createWarehouse(t.db, { team_id: t.teamId, name: 'West' })).id;
  const w: World = {
    t,
    token,
    merchantId: merchant.teamId,
    east,
    west,
    call: (method, url, body, tok) => t.call(method, url, { token: tok ?? token, ...(body !== undefined ? { body } : {}) }),
    async product(sku, stock = {}, extra = {}) {
      const owner = extra.merchantId ?? merchant.teamId;
      const p = await t.db.prisma.product.create({
        data: {
          team_id: owner,
          merchant_team_id: owner,
          fulfiller_team_id: t.teamId,
          name: `Product ${sku}`,
          sku,
          image_url: extra.image_url ?? `https://img.example/${sku}.jpg`,
          measurement_unit: 'MM',
          weight_unit: 'G',
        },
      });
      // Through the ledger (RECEIVED movements), so level = sum of movements holds from the start.
      await t.db.prisma.$transaction(async (tx) => {
        for (const [warehouse_id, on_hand] of Object.entries(stock)) {
          if (on_hand > 0) await receiveStock(tx, { product_id: p.id, warehouse_id, quantity: on_hand });
          else await tx.inventoryLevel.create({ data: { product_id: p.id, warehouse_id } });
        }
      });
      return p.id;
    },
    async draft(body) {
      const res = await w.call('POST', '/v1/ops/draft-orders', { shipping_address: ADDRESS, ...body });
      if (res.statusCode !== 201) throw new Error(`draft create failed: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    async order(body) {
      const d = await w.draft(body);
      const res = await w.call('POST', `/v1/ops/draft-orders/${d.id}/convert`);
      if (res.statusCode !== 200) throw new Error(`convert failed: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    level: (productId, warehouseId) =>
      t.db.prisma.inventoryLevel.findUnique({ where: { product_id_warehouse_id: { product_id: productId, warehouse_id: warehouseId } } }),
  };
  return w;
}

export const line = (sku: string, quantity: number, price = 10) => ({ sku, quantity, price });

/** The ids of GET /v1/ops/orders/export?<query> (NDJSON), after asserting a 200. */
export async function exportedIds(w: World, query: string): Promise<string[]> {
  const r = await w.call('GET', `/v1/ops/orders/export?${query}`);
  if (r.statusCode !== 200) throw new Error(`export ${query}: ${r.statusCode} ${r.body}`);
  return r.body
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l: string) => (JSON.parse(l) as { id: string }).id);
}
