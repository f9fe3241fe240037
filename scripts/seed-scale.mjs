#!/usr/bin/env node
// Capacity seeder: fills a migrated fos database with a warehouse's worth of varied records for
// one fulfiller team and its delegated merchants, for capacity checks and benchmarks.
//
//   node scripts/seed-scale.mjs --db <sqlite file | postgresql url> --orders N --products N
//        [--packages N] [--charges N] [--files N] [--merchants 3] [--warehouses 3] [--seed 1]
//
// Teams, delegations and warehouses go through the domain (dist/, so run `npm run build` first);
// the bulk rows (products, orders, line items, fulfillment orders and their line items) are written
// with raw multi-row INSERTs inside large transactions, because going through Prisma row by row
// would take hours at 1M orders. The rows carry every derived column the API reads (search_text,
// order_number_key, order_seq, counts), so they read exactly like orders made through the API.
// Packages (with line items, labels, fulfillments, scan forms), charges and files are opt-in
// (default 0) and come from scripts/seed-scale-records.mjs: packages belong to the fulfillment
// orders made here (up to about 1.3 per order; ~1% fewer than asked), SHIPPING charges to the
// fulfilled packages (4 in 5 of --charges at most), and storage/receiving charges make up the rest.
// Prints the team and warehouse ids as JSON on stdout; progress goes to stderr.
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { migrate } from '../dist/db/migrate.js';
import { createDb, parseDbUrl } from '../dist/db/client.js';
import * as teams from '../dist/domain/teams/teams.js';
import { searchKey } from '../dist/domain/search.js';
import {
  CHARGE_COLS,
  FILE_COLS,
  FULFILLMENT_COLS,
  LABEL_COLS,
  PACKAGE_COLS,
  PACKAGE_LINE_COLS,
  RARE_FILE,
  RATE_CARD,
  SCAN_FORM_COLS,
  recordMakers,
} from './seed-scale-records.mjs';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    orders: { type: 'string', default: '10000' },
    products: { type: 'string', default: '1000' },
    packages: { type: 'string', default: '0' },
    charges: { type: 'string', default: '0' },
    files: { type: 'string', default: '0' },
    merchants: { type: 'string', default: '3' },
    warehouses: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
  },
});
if (!args.db) {
  process.stderr.write(
    'usage: node scripts/seed-scale.mjs --db <sqlite file | postgresql url> --orders N --products N ' +
      '[--packages N] [--charges N] [--files N] [--merchants 3] [--warehouses 3]\n',
  );
  process.exit(2);
}
const N_ORDERS = Number(args.orders);
const N_PRODUCTS = Math.max(1, Number(args.products));
const N_MERCHANTS = Math.max(1, Number(args.merchants));
const N_WAREHOUSES = Math.max(1, Number(args.warehouses));
const N_PACKAGES = Number(args.packages);
const N_CHARGES = Number(args.charges);
const N_FILES = Number(args.files);
for (const [k, v] of Object.entries({ N_ORDERS, N_PRODUCTS, N_MERCHANTS, N_WAREHOUSES, N_PACKAGES, N_CHARGES, N_FILES })) {
  if (!Number.isInteger(v) || v < 0) throw new Error(`${k} must be a non-negative integer`);
}

// Deterministic PRNG (mulberry32) so a given --seed always yields the same data.
let rngState = Number(args.seed) >>> 0 || 1;
const rand = () => {
  rngState = (rngState + 0x6d2b79f5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (arr) => arr[Math.floor(rand() * arr.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

// UUIDv7-shaped ids (time-ordered like the schema's uuid(7) default), from the record's own time.
// Random bits come from one big hex string: slicing strings allocates far less than Buffers do.
const RHEX = randomBytes(1 << 20).toString('hex');
const VARIANT = '89ab';
let rhexPos = 0;
function uuid7(ms) {
  if (rhexPos + 16 > RHEX.length) rhexPos = (rhexPos % 97) + 1; // wrap with a shift: ids stay unique because ms and the shift differ
  const h = ms.toString(16).padStart(12, '0');
  const r = RHEX.slice(rhexPos, (rhexPos += 16));
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7${r.slice(0, 3)}-${VARIANT[r.charCodeAt(3) & 3]}${r.slice(4, 7)}-${r.slice(7, 16)}${RHEX.slice(rhexPos, rhexPos + 3)}`;
}

const FIRST = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Amelia',
  'Oliver',
  'Ava',
  'Elijah',
  'Sophia',
  'Mateo',
  'Isabella',
  'Lucas',
  'Mia',
  'Levi',
  'Charlotte',
  'Ezra',
  'Harper',
  'Asher',
  'Luna',
  'James',
  'Gianna',
  'Leo',
  'Evelyn',
  'Hiroshi',
  'Yuki',
  'Priya',
  'Arjun',
  'Fatima',
  'Omar',
  'Chen',
  'Wei',
  'Sofía',
  'Diego',
  'Zoë',
  'Björn',
  'Ingrid',
  'Kwame',
  'Amara',
  'Dmitri',
  'Anya',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Nakamura',
  'Patel',
  'Okafor',
  'Müller',
  'Kowalski',
  'Ivanova',
  'Andersson',
  'Dubois',
  'Rossi',
  "O'Brien",
];
const DOMAINS = ['example.com', 'mail.test', 'inbox.example', 'shop.example', 'post.test'];
const CITIES = [
  ['Austin', 'TX', '78701'],
  ['Denver', 'CO', '80202'],
  ['Portland', 'OR', '97201'],
  ['Chicago', 'IL', '60601'],
  ['Miami', 'FL', '33101'],
  ['Seattle', 'WA', '98101'],
  ['Boston', 'MA', '02108'],
  ['Phoenix', 'AZ', '85001'],
];
const ADJ = ['Classic', 'Organic', 'Deluxe', 'Compact', 'Premium', 'Eco', 'Travel', 'Pro', 'Mini', 'Heavy-Duty', 'Vintage', 'Smart'];
const NOUN = [
  'Mug',
  'T-Shirt',
  'Backpack',
  'Candle',
  'Notebook',
  'Water Bottle',
  'Headphones',
  'Yoga Mat',
  'Coffee Beans',
  'Phone Case',
  'Lamp',
  'Sneakers',
  'Scarf',
  'Teapot',
  'Blanket',
  'Charger',
  'Soap',
  'Wallet',
  'Socks',
  'Puzzle',
];
// Rare customers: a handful of orders whose names/emails no other order shares (benchmarks search for them).
const RARE = [['Xanthippe Quillfeather', 'xanthippe.q@rare.example']];

const provider = parseDbUrl(args.db).provider;
const t0 = Date.now();
const log = (m) => process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}\n`);

// ---- teams, delegations, warehouses through the domain ----
await migrate(args.db);
const db = await createDb(args.db);
const fulfiller = await teams.createTeam(db, { name: 'Scale Fulfillment Co', kind: 'FULFILLER' });
const merchants = [];
const delegations = [];
for (let m = 0; m < N_MERCHANTS; m++) {
  const team = await teams.createTeam(db, { name: `Scale Merchant ${m + 1}`, kind: 'MERCHANT' });
  delegations.push(await teams.createDelegation(db, { merchant_team_id: team.id, fulfiller_team_id: fulfiller.id, rate_card: RATE_CARD }));
  merchants.push(team);
}
const warehouses = [];
for (let w = 0; w < N_WAREHOUSES; w++) {
  const [city, state, zip] = CITIES[w % CITIES.length];
  warehouses.push(
    await teams.createWarehouse(db, {
      team_id: fulfiller.id,
      name: `${city} DC ${w + 1}`,
      address1: `${100 + w} Dock St`,
      city,
      state,
      zip,
      country: 'US',
    }),
  );
}
const locationTypes = [];
for (const name of ['Shelf', 'Pallet', 'Bin']) locationTypes.push(await teams.createLocationType(db, { team_id: fulfiller.id, name }));
await db.close();
log(`teams: fulfiller ${fulfiller.id}, ${merchants.length} merchants, ${warehouses.length} warehouses`);

// ---- raw bulk writer per provider ----
// SQLite: one libSQL connection, prepared multi-row statements, one transaction per chunk.
// PostgreSQL: pg multi-row INSERTs (parameterised), one transaction per chunk.
// Dates: Prisma's SQLite adapter stores ISO-8601 text; PostgreSQL takes ISO text for timestamp(3).
const iso = (ms) => new Date(ms).toISOString().replace('Z', '+00:00'); // the adapter's own form, so text order matches
let writer;
if (provider === 'sqlite') {
  const { default: Database } = await import('libsql');
  const sq = new Database(parseDbUrl(args.db).file);
  sq.pragma('journal_mode = WAL');
  sq.pragma('synchronous = OFF'); // bulk load only; the server opens the file with its own settings
  sq.pragma('cache_size = -200000');
  const stmts = new Map();
  writer = {
    async insert(table, cols, rows) {
      const per = Math.max(1, Math.floor(32000 / cols.length));
      for (let i = 0; i < rows.length; i += per) {
        const chunk = rows.slice(i, i + per);
        const key = `${table}:${chunk.length}`;
        let st = stmts.get(key);
        if (!st) {
          const tuple = `(${cols.map(() => '?').join(',')})`;
          st = sq.prepare(
            `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(',')}) VALUES ${Array(chunk.length).fill(tuple).join(',')}`,
          );
          stmts.set(key, st);
        }
        st.run(chunk.flat());
      }
    },
    async begin() {
      sq.exec('BEGIN');
    },
    async commit() {
      sq.exec('COMMIT');
    },
    async indexes(tables) {
      const q = sq.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name = ?`);
      return tables.flatMap((t) => q.all(t));
    },
    async exec(sql) {
      sq.exec(sql);
    },
    async triggers(table) {
      return sq.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?`).all(table);
    },
    async pauseTriggers(table) {
      const saved = await this.triggers(table);
      for (const tr of saved) sq.exec(`DROP TRIGGER "${tr.name}"`);
      return async () => {
        for (const tr of saved) sq.exec(tr.sql);
      };
    },
    async scalar(sql) {
      return sq.prepare(sql).get().v;
    },
    async close() {
      sq.exec('ANALYZE');
      sq.close();
    },
    bool: (b) => (b ? 1 : 0),
  };
} else {
  const { default: pg } = await import('pg');
  const target = parseDbUrl(args.db);
  const client = new pg.Client(target.pool); // same connection settings (incl. search_path) as the server
  await client.connect();
  writer = {
    async insert(table, cols, rows) {
      const per = Math.max(1, Math.floor(60000 / cols.length));
      for (let i = 0; i < rows.length; i += per) {
        const chunk = rows.slice(i, i + per);
        let p = 0;
        const tuples = chunk.map(() => `(${cols.map(() => `$${++p}`).join(',')})`).join(',');
        await client.query(`INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(',')}) VALUES ${tuples}`, chunk.flat());
      }
    },
    async begin() {
      await client.query('BEGIN');
    },
    async commit() {
      await client.query('COMMIT');
    },
    async indexes(tables) {
      const { rows } = await client.query(
        `SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ANY($1) AND indexname NOT LIKE '%_pkey'`,
        [tables],
      );
      return rows;
    },
    async exec(sql) {
      await client.query(sql);
    },
    async triggers() {
      return [];
    }, // PostgreSQL's search index is a GIN index, rebuilt with the others
    async pauseTriggers(table) {
      await client.query(`ALTER TABLE "${table}" DISABLE TRIGGER USER`);
      return async () => {
        await client.query(`ALTER TABLE "${table}" ENABLE TRIGGER USER`);
      };
    },
    async scalar(sql) {
      return (await client.query(sql)).rows[0].v;
    },
    // VACUUM too: a table fresh from a bulk load has no visibility map until autovacuum visits it
    // (a minute or more after the load), so no index-only scans, and the planners of deep pages
    // pick sequential scans (OFFSET 10,000 of the product list: 114 ms before, 25 ms after).
    async close() {
      await client.query('VACUUM ANALYZE');
      await client.end();
    },
    bool: (b) => b,
  };
}
const B = writer.bool;

// ---- products ----
// Varied for every filter of the ops product list (issue 9): about 1 in 5 owned by the fulfiller
// itself, the rest by its delegated merchants; types (ASSEMBLY rare); images, barcodes (some
// blank: the list counts '' as none), first-article inspections, listing variants in the
// merchants' shops, stock levels in the warehouses (the last warehouse stocks ~50 products), and
// 5 products named "Quillfeather …" for a rare search term. These draw on their own PRNG, so the
// orders and records seeded after them are the same as before they existed.
const PRODUCT_COLS = [
  'id',
  'team_id',
  'merchant_team_id',
  'fulfiller_team_id',
  'name',
  'sku',
  'barcode',
  'image_url',
  'type',
  'weight',
  'measurement_unit',
  'weight_unit',
  'is_hazmat',
  'first_article_inspection_completed_at',
  'search_text',
  'name_sku_search_text',
  'created_at',
  'updated_at',
];
const SHOP_COLS = ['id', 'merchant_team_id', 'fulfiller_team_id', 'name', 'slug', 'shop_type', 'created_at', 'updated_at'];
const VARIANT_COLS = ['id', 'product_id', 'shop_id', 'remote_id', 'sku', 'name', 'price', 'currency', 'created_at', 'updated_at'];
const LEVEL_COLS = ['id', 'product_id', 'warehouse_id', 'on_hand', 'committed', 'unavailable', 'on_order', 'created_at', 'updated_at'];
const products = []; // { id, merchant, sku, name, price }
const SPAN = 2 * 365 * 86400_000; // two years of history
const start = Date.now() - SPAN;
let pState = (Number(args.seed) >>> 0 || 1) ^ 0x5eed;
const prand = () => {
  // mulberry32, as rand
  pState = (pState + 0x6d2b79f5) >>> 0;
  let t = pState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const rareProductEvery = Math.max(1, Math.floor(N_PRODUCTS / 5));
await writer.begin();
const shops = new Map(); // merchant id -> [shop ids]
const shopRows = [];
for (const [m, merchant] of merchants.entries()) {
  const ids = [];
  for (const [s, type] of [
    ['SHOPIFY', 'SHOPIFY'],
    ['AMAZON', 'AMAZON'],
    ['MANUAL', 'MANUAL'],
  ].slice(0, 1 + (m % 3))) {
    const id = uuid7(start);
    ids.push(id);
    shopRows.push([id, merchant.id, fulfiller.id, `${merchant.name} ${s}`, `${s.toLowerCase()}-${m + 1}`, type, iso(start), iso(start)]);
  }
  shops.set(merchant.id, ids);
}
await writer.insert('shops', SHOP_COLS, shopRows);
let batch = [];
let variants = [];
let levels = [];
const now = Date.now();
for (let i = 0; i < N_PRODUCTS; i++) {
  const merchant = merchants[i % merchants.length];
  const own = prand() < 0.2; // the fulfiller's own product
  const rare = i % rareProductEvery === rareProductEvery - 1 && i < rareProductEvery * 5;
  const common = `${pick(ADJ)} ${pick(NOUN)} ${i + 1}`; // drawn for every product: the orders' draws stay the same
  const name = rare ? `Quillfeather Astrolabe ${i + 1}` : common;
  const sku = `SKU-${String(i + 1).padStart(7, '0')}`;
  const b = prand();
  const barcode = b < 0.85 ? String(400000000000 + i) : b < 0.88 ? '' : null;
  const g = prand();
  const image = g < 0.35 ? `https://img.example/p/${i + 1}.jpg` : g < 0.37 ? '' : null;
  const t = prand();
  const type = t < 0.003 ? 'ASSEMBLY' : t < 0.06 ? 'VIRTUAL_BUNDLE' : 'STANDARD';
  const at = start + Math.floor((i / N_PRODUCTS) * SPAN * 0.2);
  const updated = Math.min(now, at + Math.floor(prand() * SPAN * 0.6));
  const inspected = prand() < 0.08 ? iso(at + 86400_000) : null;
  const id = uuid7(at);
  const team = own ? fulfiller.id : merchant.id;
  products.push({ id, merchant: own ? null : merchant.id, sku, name, price: Math.round((3 + rand() * 120) * 100) / 100 });
  batch.push([
    id,
    team,
    own ? null : merchant.id,
    fulfiller.id,
    name,
    sku,
    barcode,
    image,
    type,
    Math.round(50 + rand() * 5000),
    'MM',
    'G',
    B(rand() < 0.02),
    inspected,
    [name, sku, barcode].map(searchKey).join(' '),
    [name, sku].map(searchKey).join(' '),
    iso(at),
    iso(updated),
  ]);
  if (prand() < 0.2) {
    // listed in 1-2 shops (none: MANUAL listings)
    const pool = own ? [null] : shops.get(merchant.id);
    for (let v = 0, n = 1 + Math.floor(prand() * 2); v < n; v++) {
      variants.push([uuid7(at), id, pool[v % pool.length], `r-${i + 1}-${v}`, sku, name, 19.99, 'USD', iso(at), iso(at)]);
    }
  }
  for (const [w, warehouse] of warehouses.entries()) {
    const share = w === warehouses.length - 1 && warehouses.length > 1 ? 0.0005 : w === 0 ? 0.7 : 0.25;
    if (prand() >= share) continue;
    const onHand = Math.floor(prand() * 500);
    levels.push([uuid7(at), id, warehouse.id, onHand, Math.min(onHand, Math.floor(prand() * 3)), 0, 0, iso(at), iso(updated)]);
  }
  if (batch.length >= 20000) {
    await writer.insert('products', PRODUCT_COLS, batch);
    await writer.insert('product_listing_variants', VARIANT_COLS, variants);
    await writer.insert('inventory_levels', LEVEL_COLS, levels);
    batch = [];
    variants = [];
    levels = [];
  }
}
await writer.insert('products', PRODUCT_COLS, batch);
await writer.insert('product_listing_variants', VARIANT_COLS, variants);
await writer.insert('inventory_levels', LEVEL_COLS, levels);
await writer.commit();
log(`products: ${N_PRODUCTS}`);
const productsByMerchant = new Map(merchants.map((m) => [m.id, products.filter((p) => p.merchant === m.id)]));

// ---- orders, line items, fulfillment orders ----
const ORDER_COLS = [
  'id',
  'order_number',
  'merchant_team_id',
  'fulfiller_team_id',
  'status',
  'fulfillment_status',
  'payment_status',
  'priority',
  'priority_rank',
  'currency',
  'tags',
  'total_price',
  'total_tax',
  'total_outstanding',
  'shipping_address',
  'customer_email',
  'customer_name',
  'core_line_item_count',
  'unique_core_line_item_count',
  'tracking_count',
  'fulfillment_count',
  'line_item_image_urls',
  'search_text',
  'order_number_key',
  'order_seq',
  'order_number_class',
  'order_sort_key',
  'unallocated_quantity',
  'closed_at',
  'cancelled_at',
  'created_at',
  'updated_at',
];
const LINE_COLS = [
  'id',
  'order_id',
  'kind',
  'product_id',
  'sku',
  'name',
  'remaining_quantity',
  'total_quantity',
  'unallocated_quantity',
  'price',
  'created_at',
  'updated_at',
];
const FO_COLS = [
  'id',
  'order_id',
  'warehouse_id',
  'fulfiller_team_id',
  'merchant_team_id',
  'status',
  'request_status',
  'packing_completed_at',
  'created_at',
  'updated_at',
];
const FOLI_COLS = [
  'id',
  'fulfillment_order_id',
  'order_line_item_id',
  'product_id',
  'sku',
  'name',
  'quantity',
  'remaining_quantity',
  'created_at',
  'updated_at',
];
// Secondary indexes of the bulk tables are dropped for the load and rebuilt after it: building an
// index once over sorted data is several times faster than maintaining a dozen indexes row by row.
// (Run on a database holding other data, the rebuild also covers that data; the result is the same.)
const BULK_TABLES = [
  'orders',
  'order_line_items',
  'fulfillment_orders',
  'fulfillment_order_line_items',
  'packages',
  'package_line_items',
  'shipping_labels',
  'fulfillments',
  'charges',
  'scan_forms',
  'files',
];
const savedIndexes = await writer.indexes(BULK_TABLES);
for (const ix of savedIndexes) await writer.exec(`DROP INDEX "${ix.name}"`);
// SQLite's order search index (FTS5, kept by triggers on orders) is filled once after the load too.
const savedTriggers = await writer.triggers('orders');
for (const tr of savedTriggers) await writer.exec(`DROP TRIGGER "${tr.name}"`);
// So are the fulfillment-order count triggers (migration fulfillment_order_counts): the counts are
// recounted once after the load instead of maintained row by row.
const resumeCountTriggers = await writer.pauseTriggers('fulfillment_orders');
const searchIdsBefore = savedTriggers.length ? await writer.scalar('SELECT COALESCE(MAX(id), 0) AS v FROM order_search_ids') : 0;
const emailNames = new Map();
const emailName = (f, l) => {
  const k = `${f}.${l}`;
  let v = emailNames.get(k);
  if (v === undefined)
    emailNames.set(
      k,
      (v = k
        .toLowerCase()
        .normalize('NFD')
        .replace(/[^a-z.]/g, '')),
    );
  return v;
};
const PRIORITIES = [
  ['LOW', 1],
  ['NORMAL', 2],
  ['NORMAL', 2],
  ['NORMAL', 2],
  ['HIGH', 3],
  ['CRITICAL', 4],
];
const rareEvery = Math.max(1, Math.floor(N_ORDERS / 5)); // ~5 orders carry the rare customer

const makers = recordMakers({ rand, pick, int, uuid7, iso, searchKey, fulfiller, merchants, delegations, warehouses, locationTypes });
// Packages and SHIPPING charges (4 in 5 of --charges, at most one per fulfilled package) are spread
// over the orders by quota: each order adds its share and the fulfillment orders that can hold
// packages take what has accumulated.
const SHIP_TARGET = Math.round(N_CHARGES * 0.8);
const PKG_QUOTA = N_ORDERS ? N_PACKAGES / N_ORDERS : 0;
const SHIP_QUOTA = N_ORDERS ? SHIP_TARGET / N_ORDERS : 0;
const TRACKING_COUNT = ORDER_COLS.indexOf('tracking_count');
const FULFILLMENT_COUNT = ORDER_COLS.indexOf('fulfillment_count');
let pkgAcc = 0,
  shipAcc = 0;
let packageCount = 0,
  shippingCount = 0;
const CHUNK = 10000;
let lineCount = 0;
let foCount = 0;
for (let base = 0; base < N_ORDERS; base += CHUNK) {
  const orders = [],
    lines = [],
    fos = [],
    folis = [];
  const out = { packages: [], packageLines: [], labels: [], fulfillments: [], charges: [] };
  const end = Math.min(N_ORDERS, base + CHUNK);
  for (let i = base; i < end; i++) {
    const at = start + Math.floor((i / Math.max(1, N_ORDERS)) * SPAN) + int(0, 59_000);
    const age = Date.now() - at;
    const atIso = iso(at);
    const merchant = merchants[int(0, merchants.length - 1)];
    const id = uuid7(at);
    const seq = 1001 + i;
    // Status mix: old orders are mostly closed; the last weeks hold the open work.
    const r = rand();
    let status, fstatus, pstatus;
    if (r < 0.04) {
      status = 'CANCELLED';
      fstatus = 'UNFULFILLED';
      pstatus = pick(['REFUNDED', 'PENDING']);
    } else if (age > 14 * 86400_000 ? r < 0.9 : r < 0.3) {
      status = 'CLOSED';
      fstatus = 'FULFILLED';
      pstatus = 'PAID';
    } else if (r < 0.95) {
      status = 'PENDING_FULFILLMENT';
      fstatus = rand() < 0.2 ? 'PARTIALLY_FULFILLED' : 'UNFULFILLED';
      pstatus = 'PAID';
    } else {
      status = 'OPEN';
      fstatus = 'UNFULFILLED';
      pstatus = 'PENDING';
    }
    let name, email;
    if (i % rareEvery === rareEvery - 1 && i < rareEvery * 5) [name, email] = RARE[0];
    else {
      const f = pick(FIRST),
        l = pick(LAST);
      name = `${f} ${l}`;
      email = `${emailName(f, l)}${int(1, 999)}@${pick(DOMAINS)}`;
    }
    const [city, state, zip] = pick(CITIES);
    const ship = { name, address1: `${int(1, 9999)} Main St`, city, state, zip, country: 'US' };
    const pool = productsByMerchant.get(merchant.id).length ? productsByMerchant.get(merchant.id) : products;
    const nLines = rand() < 0.6 ? 1 : int(2, 4);
    const items = [];
    let total = 0,
      units = 0;
    for (let k = 0; k < nLines; k++) {
      const p = pool[int(0, pool.length - 1)];
      const qty = rand() < 0.8 ? 1 : int(2, 5);
      total += p.price * qty;
      units += qty;
      const done = status === 'CLOSED' || status === 'CANCELLED';
      const remaining = done ? 0 : fstatus === 'PARTIALLY_FULFILLED' && k === 0 ? 0 : qty;
      const li = { id: uuid7(at), p, qty, remaining };
      items.push(li);
      lines.push([li.id, id, 'CORE', p.id, p.sku, p.name, remaining, qty, 0, p.price, atIso, atIso]);
    }
    const [priority, rank] = pick(PRIORITIES);
    const upd = Math.min(Date.now(), at + (status === 'OPEN' ? 0 : int(3600_000, 5 * 86400_000)));
    const updIso = iso(upd);
    const tax = Math.round(total * 0.08 * 100) / 100;
    const orderRow = [
      id,
      `#${seq}`,
      merchant.id,
      fulfiller.id,
      status,
      fstatus,
      pstatus,
      priority,
      rank,
      'USD',
      '[]',
      Math.round((total + tax) * 100) / 100,
      tax,
      pstatus === 'PAID' ? 0 : Math.round((total + tax) * 100) / 100,
      JSON.stringify(ship),
      email,
      name,
      units,
      nLines,
      status === 'CLOSED' ? 1 : 0,
      status === 'CLOSED' ? 1 : 0,
      '[]',
      [name, email].map(searchKey).join(' '),
      String(seq),
      seq,
      0,
      String(seq).padStart(10, '0'),
      0,
      status === 'CLOSED' ? updIso : null,
      status === 'CANCELLED' ? updIso : null,
      atIso,
      updIso,
    ];
    orders.push(orderRow);
    pkgAcc = Math.min(pkgAcc + PKG_QUOTA, 20);
    shipAcc = Math.min(shipAcc + SHIP_QUOTA, 20);
    if (status === 'CLOSED' || status === 'PENDING_FULFILLMENT') {
      const foId = uuid7(at);
      const warehouse = warehouses[int(0, warehouses.length - 1)];
      const foStatus =
        status === 'CLOSED' ? 'FULFILLED' : fstatus === 'PARTIALLY_FULFILLED' ? 'IN_PROGRESS' : pick(['PENDING', 'ACCEPTED', 'ACCEPTED']);
      fos.push([
        foId,
        id,
        warehouse.id,
        fulfiller.id,
        merchant.id,
        foStatus,
        foStatus === 'PENDING' ? 'UNSUBMITTED' : 'ACCEPTED',
        foStatus === 'FULFILLED' ? updIso : null,
        atIso,
        updIso,
      ]);
      for (const li of items)
        folis.push([(li.foliId = uuid7(at)), foId, li.id, li.p.id, li.p.sku, li.p.name, li.qty, li.remaining, atIso, updIso]);
      const made = makers.packagesFor(
        {
          id: foId,
          orderId: id,
          orderNumber: `#${seq}`,
          merchantId: merchant.id,
          warehouseId: warehouse.id,
          warehouseName: warehouse.name,
          foStatus,
          items,
          at,
          upd,
          ship,
          customerName: name,
          customerEmail: email,
          priority,
        },
        Math.min(Math.floor(pkgAcc), N_PACKAGES - packageCount),
        Math.min(Math.floor(shipAcc), SHIP_TARGET - shippingCount),
        out,
      );
      if (made.made) {
        // The order's counts follow its fulfillments, as fulfill keeps them.
        pkgAcc -= made.made;
        shipAcc -= made.charged;
        packageCount += made.made;
        shippingCount += made.charged;
        orderRow[TRACKING_COUNT] = orderRow[FULFILLMENT_COUNT] = made.fulfilled;
      }
    }
  }
  await writer.begin();
  await writer.insert('orders', ORDER_COLS, orders);
  await writer.insert('order_line_items', LINE_COLS, lines);
  await writer.insert('fulfillment_orders', FO_COLS, fos);
  await writer.insert('fulfillment_order_line_items', FOLI_COLS, folis);
  await writer.insert('packages', PACKAGE_COLS, out.packages);
  await writer.insert('package_line_items', PACKAGE_LINE_COLS, out.packageLines);
  await writer.insert('shipping_labels', LABEL_COLS, out.labels);
  await writer.insert('fulfillments', FULFILLMENT_COLS, out.fulfillments);
  await writer.insert('charges', CHARGE_COLS, out.charges);
  await writer.commit();
  lineCount += lines.length;
  foCount += fos.length;
  if ((end / CHUNK) % 10 === 0 || end === N_ORDERS) log(`orders: ${end}/${N_ORDERS}`);
}
if (packageCount) log(`packages: ${packageCount} (${shippingCount} with SHIPPING charges)`);
await writer.begin();
await writer.insert('scan_forms', SCAN_FORM_COLS, makers.scanFormRows());
await writer.commit();

// ---- storage and receiving charges (the rest of --charges), files: two years, oldest first ----
/** `n` rows from make(ms, i), times spread evenly over the history, inserted 20,000 per transaction. */
async function spread(table, cols, n, make) {
  for (let base = 0; base < n; base += 20000) {
    const rows = [];
    for (let i = base; i < Math.min(n, base + 20000); i++) rows.push(make(start + Math.floor((i / n) * SPAN) + int(0, 59_000), i));
    await writer.begin();
    await writer.insert(table, cols, rows);
    await writer.commit();
  }
}
const billingCount = Math.max(0, N_CHARGES - shippingCount);
await spread('charges', CHARGE_COLS, billingCount, (ms) => makers.billingCharge(ms));
const rareFileEvery = Math.max(1, Math.floor(N_FILES / 5)); // ~5 files carry a rare name
await spread('files', FILE_COLS, N_FILES, (ms, i) => makers.file(ms, i, i % rareFileEvery === rareFileEvery - 1 && i < rareFileEvery * 5));
if (N_CHARGES || N_FILES) log(`charges: ${shippingCount + billingCount}, files: ${N_FILES}`);
log(`rebuilding ${savedIndexes.length} indexes`);
for (const ix of savedIndexes) await writer.exec(ix.sql);
if (savedTriggers.length) {
  log('filling the order search index');
  await writer.exec(
    'INSERT INTO order_search_ids (order_id) SELECT id FROM orders WHERE id NOT IN (SELECT order_id FROM order_search_ids)',
  );
  await writer.exec(
    `INSERT INTO order_search (rowid, text) SELECT s.id, o.search_text FROM order_search_ids s JOIN orders o ON o.id = s.order_id WHERE s.id > ${Number(searchIdsBefore)}`,
  );
  for (const tr of savedTriggers) await writer.exec(tr.sql);
}
log('recounting fulfillment orders');
if (provider !== 'sqlite') await writer.exec('DELETE FROM "fulfillment_order_count_deltas"');
await writer.exec('DELETE FROM "fulfillment_order_counts"');
await writer.exec(`INSERT INTO "fulfillment_order_counts" ("fulfiller_team_id", "warehouse_id", "status", "n")
  SELECT "fulfiller_team_id", "warehouse_id", "status", COUNT(*) FROM "fulfillment_orders" GROUP BY 1, 2, 3`);
await resumeCountTriggers();
await writer.close();
log(
  `done: ${N_ORDERS} orders, ${lineCount} line items, ${foCount} fulfillment orders, ${N_PRODUCTS} products, ${packageCount} packages, ` +
    `${shippingCount + billingCount} charges, ${N_FILES} files`,
);
process.stdout.write(
  JSON.stringify(
    {
      fulfiller_team_id: fulfiller.id,
      merchant_team_ids: merchants.map((m) => m.id),
      warehouse_ids: warehouses.map((w) => w.id),
      orders: N_ORDERS,
      products: N_PRODUCTS,
      line_items: lineCount,
      fulfillment_orders: foCount,
      packages: packageCount,
      charges: shippingCount + billingCount,
      shipping_charges: shippingCount,
      files: N_FILES,
      rare_customer: { name: RARE[0][0], email: RARE[0][1] },
      rare_file: RARE_FILE,
      seconds: Math.round((Date.now() - t0) / 100) / 10,
    },
    null,
    2,
  ) + '\n',
);
