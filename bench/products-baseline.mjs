// A hand-written server for GET /v1/ops/products?limit=20 (issue 9 target 4) and
// GET /v1/ops/orders/list?limit=20 (issue 29 target 2): plain Fastify and synchronous SQLite over
// the same database file fos serves, answering the first page of a fulfiller key's products or
// orders with the same JSON as fos, byte for byte (bench/reads.mjs and bench/list-pages.mjs check).
// It is what fos's throughput is compared with; it serves only those request shapes.
//
//   node bench/products-baseline.mjs --db <sqlite file>     # its own process: prints its url
//
// The order page is one prepared statement (the page with its merchant team and shop names) and
// JSON.stringify.
//
// The issue names better-sqlite3. Its binaries come from GitHub (or node-gyp against the running
// Node's headers), which this machine cannot reach, so the baseline uses the `libsql` package: the
// better-sqlite3 API (prepare/all/get, synchronous) over the same SQLite, and fos's own driver.
//
// The honest cheapest path: the key is looked up by its SHA-256 and cached 5 s (as fos does);
// every statement is prepared once; the page is one ordered walk of (team_id, created_at) per
// team (the caller's and its active delegated merchants', read on every request), merged; team
// names and the bundle count come with the rows; stock levels (with warehouse names) and listing
// variants (with shop types) are one statement each for the page. No rate limiting, no logging.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import Database from 'libsql';

const PLATFORMS = ['SHOPIFY', 'AMAZON', 'BIGCOMMERCE', 'MANUAL', 'WOOCOMMERCE', 'EBAY', 'ETSY'];
const UNAVAILABLE_LABELS = { DAMAGED: 'damaged', QUARANTINE: 'quarantine', RELEASE_QUARANTINE: 'quarantine' };
const ON_ORDER_LABELS = { purchase_order: 'purchase_orders', transfer: 'transfers' };
const LIMIT = 20;
const TTL_MS = 5_000;

const statements = (db) => ({
  key: db.prepare(`SELECT k.id, k.team_id, k.state, k.power_role, k.expires_at, t.kind,
      (SELECT json_group_array(r.permissions) FROM api_key_roles kr JOIN roles r ON r.id = kr.role_id WHERE kr.api_key_id = k.id) AS role_permissions
    FROM api_keys k JOIN teams t ON t.id = k.team_id WHERE k.token_hash = ?`),
  merchants: db.prepare('SELECT merchant_team_id FROM fulfillment_delegations WHERE fulfiller_team_id = ? AND active = 1'),
  page: db.prepare(`SELECT p.*, tt.name AS t_name, mt.name AS m_name, ft.name AS f_name,
      (SELECT COUNT(*) FROM product_components c WHERE c.parent_product_id = p.id AND c.kind = 'VIRTUAL_BUNDLE') AS bundle_count
    FROM products p
      LEFT JOIN teams tt ON tt.id = p.team_id LEFT JOIN teams mt ON mt.id = p.merchant_team_id LEFT JOIN teams ft ON ft.id = p.fulfiller_team_id
    WHERE p.team_id = ? ORDER BY p.created_at DESC, p.id DESC LIMIT ${LIMIT + 1}`),
  levels: db.prepare(`SELECT l.product_id, l.warehouse_id, w.name AS warehouse_name, l.on_hand, l.committed, l.unavailable, l.on_order
    FROM inventory_levels l JOIN warehouses w ON w.id = l.warehouse_id
    WHERE w.team_id = ? AND l.product_id IN (SELECT value FROM json_each(?))
    ORDER BY w.name, w.id`),
  variants: db.prepare(`SELECT v.product_id, COALESCE(s.shop_type, 'MANUAL') AS platform, COUNT(*) AS n
    FROM product_listing_variants v LEFT JOIN shops s ON s.id = v.shop_id
    WHERE v.product_id IN (SELECT value FROM json_each(?)) GROUP BY v.product_id, platform`),
  orders: db.prepare(`SELECT o.id, o.created_at, o.closed_at, o.cancelled_at, mt.name AS merchant_team_name, s.name AS shop_name,
      s.shop_type, o.fulfillment_status, o.payment_status, o.priority, o.order_number, o.currency, o.note, o.shipping_method, o.tags,
      o.total_price, o.customer_email, o.customer_name, o.customer_phone, o.shipping_address, o.address_verified, o.address_residential,
      o.core_line_item_count, o.unique_core_line_item_count, o.fulfillment_count, o.line_item_image_urls, o.status
    FROM orders o LEFT JOIN teams mt ON mt.id = o.merchant_team_id LEFT JOIN shops s ON s.id = o.shop_id
    WHERE o.fulfiller_team_id = ? ORDER BY o.created_at DESC, o.id DESC LIMIT ${LIMIT + 1}`),
  movements: db.prepare(`SELECT product_id, warehouse_id, bucket, reason, reference_type, SUM(delta) AS delta
    FROM inventory_movements WHERE product_id IN (SELECT value FROM json_each(?)) AND warehouse_id IN (SELECT value FROM json_each(?))
      AND bucket IN ('unavailable', 'on_order')
    GROUP BY product_id, warehouse_id, bucket, reason, reference_type`),
});

const iso = (v) => (v === null ? null : new Date(typeof v === 'number' ? v : /^\d+$/.test(v) ? Number(v) : v).toISOString());
const problem = (reply, status, title) => reply.code(status).type('application/problem+json').send(JSON.stringify({ status, title }));

function explained(count, parts) {
  const operations = [...(parts ?? [])].filter(([, n]) => n !== 0).map(([label, n]) => ({ count: n, label }));
  const rest = count - operations.reduce((s, o) => s + o.count, 0);
  if (rest !== 0 || !operations.length) operations.push({ count: rest, label: 'stock_level' });
  return { count, operations };
}

function warehouseEntry(l, breakdown) {
  const k = `${l.product_id}:${l.warehouse_id}`;
  return {
    warehouse_id: l.warehouse_id,
    warehouse_name: l.warehouse_name,
    on_order: explained(l.on_order, breakdown.get(`${k}:on_order`)),
    unavailable: explained(l.unavailable, breakdown.get(`${k}:unavailable`)),
    committed: { count: l.committed, operations: [{ count: l.committed, label: l.committed ? 'open_orders' : 'stock_level' }] },
    on_hand: { count: l.on_hand, operations: [{ count: l.on_hand, label: 'stock_level' }] },
    available: {
      count: l.on_hand - l.committed - l.unavailable,
      operations: [
        { count: l.on_hand, label: 'on_hand' },
        { count: 0 - l.committed, label: 'committed' },
        { count: 0 - l.unavailable, label: 'unavailable' },
      ],
    },
  };
}

function breakdownOf(s, levels) {
  const busy = levels.filter((l) => l.unavailable !== 0 || l.on_order !== 0);
  const out = new Map();
  if (!busy.length) return out;
  const rows = s.movements.all(
    JSON.stringify([...new Set(busy.map((l) => l.product_id))]),
    JSON.stringify([...new Set(busy.map((l) => l.warehouse_id))]),
  );
  for (const r of rows) {
    const label =
      r.bucket === 'unavailable'
        ? (UNAVAILABLE_LABELS[r.reason ?? ''] ?? (r.reason ? r.reason.toLowerCase() : 'stock_level'))
        : (ON_ORDER_LABELS[r.reference_type ?? ''] ?? 'stock_level');
    const key = `${r.product_id}:${r.warehouse_id}:${r.bucket}`;
    const parts = out.get(key) ?? new Map();
    parts.set(label, (parts.get(label) ?? 0) + (r.delta ?? 0));
    out.set(key, parts);
  }
  return out;
}

function record(p, stock, variants) {
  const config = p.config ? JSON.parse(p.config) : {};
  const totals = { available: 0, on_hand: 0, committed: 0, unavailable: 0, on_order: 0 };
  for (const w of stock) for (const k of Object.keys(totals)) totals[k] += w[k].count;
  // In fos's order: fast-json-stringify writes a schema's required properties first, then the others.
  return {
    id: p.id,
    name: p.name,
    type: p.type,
    team_id: p.team_id,
    measurement_unit: p.measurement_unit,
    weight_unit: p.weight_unit,
    is_hazmat: Boolean(p.is_hazmat),
    ...(process.env.FOS_BENCH_BASELINE_LOT_TRACKED === '0' ? {} : { lot_tracked: Boolean(p.lot_tracked) }), // 0: a fos build from before lot_tracked
    config: {
      replenishment_source_strategy: config.replenishment_source_strategy ?? 'FIFO',
      replenishment_increment_level: config.replenishment_increment_level ?? null,
      replenishment_maximum_level: config.replenishment_maximum_level ?? null,
      replenishment_minimum_level: config.replenishment_minimum_level ?? null,
    },
    ...totals,
    inventory_by_warehouse: stock,
    virtual_bundle_component_count: p.bundle_count,
    product_listing_variant_count: variants,
    supported_actions: [{ action: 'VIEW_PRODUCT' }],
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
    sku: p.sku,
    description: p.description,
    barcode: p.barcode,
    mpn: p.mpn,
    manufacturer: p.manufacturer,
    image_url: p.image_url,
    team_name: p.t_name,
    fulfiller_team_id: p.fulfiller_team_id,
    fulfiller_team_name: p.f_name,
    merchant_team_id: p.merchant_team_id,
    merchant_team_name: p.m_name,
    length: p.length,
    width: p.width,
    height: p.height,
    weight: p.weight,
    cost_price: p.cost_price,
    cost_currency: p.cost_currency,
    customs_value: p.customs_value,
    customs_value_currency: p.customs_value_currency,
    customs_description: p.customs_description,
    country_of_origin: p.country_of_origin,
    hs_code: p.hs_code,
    printed_commodity_identifier: p.printed_commodity_identifier,
    eccn: p.eccn,
    category: p.category,
    subcategory: p.subcategory,
    pick_fee_override: p.pick_fee_override,
    first_article_inspection_completed_at: iso(p.first_article_inspection_completed_at),
    increment_level: p.increment_level,
    maximum_level: p.maximum_level,
    minimum_level: p.minimum_level,
  };
}

/** The first page of a fulfiller team's products, as fos lists them (newest first, id breaks ties). */
function firstPage(s, teamId) {
  const teams = [teamId, ...s.merchants.all(teamId).map((d) => d.merchant_team_id)];
  const rows = teams
    .flatMap((t) => s.page.all(t))
    .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
  const page = rows.slice(0, LIMIT);
  const ids = JSON.stringify(page.map((p) => p.id));
  const levels = page.length ? s.levels.all(teamId, ids) : [];
  const breakdown = breakdownOf(s, levels);
  const stock = new Map(page.map((p) => [p.id, []]));
  for (const l of levels) stock.get(l.product_id).push(warehouseEntry(l, breakdown));
  const variants = new Map(page.map((p) => [p.id, Object.fromEntries(PLATFORMS.map((k) => [k, 0]))]));
  if (page.length) for (const v of s.variants.all(ids)) variants.get(v.product_id)[v.platform] += v.n;
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > LIMIT
      ? Buffer.from(JSON.stringify({ s: 'created_at:desc,id:desc', v: [{ d: iso(last.created_at) }, last.id] })).toString('base64url')
      : null;
  return {
    data: page.map((p) => record(p, stock.get(p.id), variants.get(p.id))),
    meta: {
      page: 0,
      page_size: LIMIT,
      start_index: page.length ? 1 : 0,
      end_index: page.length,
      has_next_page: rows.length > LIMIT,
      has_previous_page: false,
      next_cursor: nextCursor,
    },
  };
}

const ADDRESS = ['company', 'address1', 'address2', 'city', 'state', 'country', 'zip'];
const str = (v) => (typeof v === 'string' ? v : null);
const strings = (text) => {
  const v = text ? JSON.parse(text) : null;
  return Array.isArray(v) ? v : [];
};

/** The first page of a fulfiller team's orders, newest first, as fos lists them. */
function firstOrderPage(s, teamId) {
  const rows = s.orders.all(teamId);
  const page = rows.slice(0, LIMIT);
  const data = page.map((o) => {
    const a = o.shipping_address ? JSON.parse(o.shipping_address) : {};
    // In fos's order: fast-json-stringify writes a schema's required properties first, then the others.
    const item = {
      id: o.id,
      created_at: iso(o.created_at),
      fulfillment_status: o.fulfillment_status,
      payment_status: o.payment_status,
      priority: o.priority,
      order_number: o.order_number,
      currency: o.currency,
      tags: strings(o.tags),
      total_price: o.total_price,
      address_verified: Boolean(o.address_verified),
      address_residential: o.address_residential,
      core_line_item_count: o.core_line_item_count,
      unique_core_line_item_count: o.unique_core_line_item_count,
      fulfillment_count: o.fulfillment_count,
      line_item_image_urls: strings(o.line_item_image_urls),
      status: o.status,
      closed_at: iso(o.closed_at),
      cancelled_at: iso(o.cancelled_at),
      merchant_team_name: o.merchant_team_name,
      shop_name: o.shop_name,
      shop_type: o.shop_type,
      note: o.note,
      shipping_method: o.shipping_method,
      customer_email: o.customer_email,
      customer_name: o.customer_name,
      customer_phone: o.customer_phone,
    };
    for (const f of ADDRESS) item[`shipping_address_${f}`] = str(a?.[f]);
    return item;
  });
  const last = page[page.length - 1];
  const more = rows.length > LIMIT;
  const nextCursor = more
    ? Buffer.from(JSON.stringify({ s: 'created_at:desc,id:desc', v: [{ d: iso(last.created_at) }, last.id] })).toString('base64url')
    : null;
  const meta = {
    page: 0,
    page_size: LIMIT,
    start_index: page.length ? 1 : 0,
    end_index: page.length,
    has_next_page: more,
    has_previous_page: false,
    next_cursor: nextCursor,
  };
  return { data, meta };
}

/** Starts the baseline on 127.0.0.1 (port 0) over `file`; resolves with its url and close(). */
export async function startBaseline({ file }) {
  const db = new Database(file, { timeout: 5_000 });
  const s = statements(db);
  const cache = new Map();
  const principal = (token) => {
    const hash = createHash('sha256').update(token).digest('hex');
    let entry = cache.get(hash);
    if (!entry || Date.now() - entry.at > TTL_MS) {
      const k = s.key.get(hash);
      const roles = k
        ? JSON.parse(k.role_permissions)
            .map((p) => JSON.parse(p))
            .flat()
        : [];
      const ok = k && k.state === 'ACTIVE' && (k.expires_at === null || new Date(iso(k.expires_at)) > new Date());
      entry = {
        at: Date.now(),
        key: ok
          ? {
              teamId: k.team_id,
              kind: k.kind,
              canRead: k.power_role === 'ADMIN' || roles.includes('READ_PRODUCTS'),
              canReadOrders: k.power_role === 'ADMIN' || roles.includes('READ_ORDERS'),
            }
          : null,
      };
      cache.set(hash, entry);
    }
    return entry.key;
  };
  const app = Fastify({ logger: false });
  app.get('/v1/ops/products', async (request, reply) => {
    const token = request.headers['x-access-token'];
    const key = typeof token === 'string' ? principal(token) : null;
    if (!key) return problem(reply, 401, 'Unauthorized');
    if (key.kind !== 'FULFILLER' || !key.canRead) return problem(reply, 403, 'Forbidden');
    const { limit, ...rest } = request.query;
    if (limit !== String(LIMIT) || Object.keys(rest).length) return problem(reply, 400, 'The baseline serves ?limit=20 only');
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(firstPage(s, key.teamId)));
  });
  app.get('/v1/ops/orders/list', async (request, reply) => {
    const token = request.headers['x-access-token'];
    const key = typeof token === 'string' ? principal(token) : null;
    if (!key) return problem(reply, 401, 'Unauthorized');
    if (key.kind !== 'FULFILLER' || !key.canReadOrders) return problem(reply, 403, 'Forbidden');
    const { limit, ...rest } = request.query;
    if (limit !== String(LIMIT) || Object.keys(rest).length) return problem(reply, 400, 'The baseline serves ?limit=20 only');
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(firstOrderPage(s, key.teamId)));
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: address,
    close: async () => {
      await app.close();
      db.close();
    },
  };
}

// Its own process: `node bench/products-baseline.mjs --db <file>` prints "listening on <url>" on stderr.
if (process.argv[1] && import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--db');
  if (at < 0 || !process.argv[at + 1]) {
    process.stderr.write('usage: node bench/products-baseline.mjs --db <sqlite file>\n');
    process.exit(2);
  }
  const server = await startBaseline({ file: process.argv[at + 1] });
  process.stderr.write(`baseline listening on ${server.url}\n`);
  process.once('SIGTERM', () => server.close().then(() => process.exit(0)));
}
