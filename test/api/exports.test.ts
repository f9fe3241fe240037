import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDS_PER_REQUEST } from '../../src/domain/exports/walk.js';
import { WINDOW_MS } from '../../src/server/rate-limit/stores.js';
import { world, line, type World } from './orders.fixtures.js';

// Streaming exports (issue 29 item 4): every record of a list once, in the list's order and with
// the list's own JSON, with its filters; CSV with formula injection neutralised; resume after an
// id; a 400 problem for bad input before anything streams; one rate-limited request per 10,000.

let w: World;
let productId: string;
const T0 = Date.parse('2026-03-01T10:00:00Z');

/** Every record of a list, walked by cursor at limit 100 (what `--all` does). */
async function walkList(path: string, query = '') {
  const out: unknown[] = [];
  let cursor: string | null | undefined;
  do {
    const res = await w.call('GET', `${path}?limit=100${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode).toBe(200);
    out.push(...res.json().data);
    cursor = res.json().meta.next_cursor;
  } while (cursor);
  return out;
}

const ndjson = (body: string) =>
  body
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

// The app's clock stands still inside one rate-limit window (a second into it), so what a key is
// charged is counted in one window however slow the machine.
const at = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + 1_000;

beforeAll(async () => {
  w = await world({ clock: () => at });
  productId = await w.product('=MUG', { [w.east]: 500 });
  for (let i = 0; i < 7; i++) await w.order({ line_items: [line('=MUG', 1 + (i % 3))], merchant_team_id: w.merchantId });
  // Charges sharing timestamps, so the id decides ties, as in the list.
  for (let i = 0; i < 2500; i += 1) {
    await w.t.db.prisma.charge.create({
      data: {
        name: i === 0 ? '=HYPERLINK("http://evil")' : `Charge ${i}`,
        category: ['SHIPPING', 'STORAGE', 'RECEIVING'][i % 3],
        quantity: 1,
        calculated_amount: i,
        original_amount: i,
        merchant_team_id: w.merchantId,
        fulfiller_team_id: w.t.teamId,
        created_at: new Date(T0 + Math.floor(i / 3) * 1000),
      },
    });
    if (i === 40) break; // 41 charges: enough for ties and two export pages would need more; pages are covered by movements below
  }
}, 120_000);
afterAll(() => w.t.close());

describe('exports', () => {
  it("orders: NDJSON equals the list walked by cursor, with the list's filters", async () => {
    const res = await w.call('GET', '/v1/ops/orders/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(res.headers['x-export-records-per-request']).toBe(String(RECORDS_PER_REQUEST));
    expect(ndjson(res.body)).toEqual(await walkList('/v1/ops/orders/list'));
    expect(ndjson(res.body)).toHaveLength(7);
    const open = await w.call('GET', '/v1/ops/orders/export?status=CLOSED');
    expect(ndjson(open.body)).toEqual([]);
  });

  it('resumes after the last record received, and refuses an unknown one before streaming', async () => {
    const all = ndjson((await w.call('GET', '/v1/ops/orders/export')).body);
    const rest = ndjson((await w.call('GET', `/v1/ops/orders/export?after=${all[2].id}`)).body);
    expect(rest).toEqual(all.slice(3));
    const bad = await w.call('GET', '/v1/ops/orders/export?after=01900000-0000-7000-8000-000000000000');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/problem\+json/);
    const filter = await w.call('GET', '/v1/ops/orders/export?status=NOPE');
    expect(filter.statusCode).toBe(400);
    const unknown = await w.call('GET', '/v1/ops/orders/export?page=2');
    expect(unknown.statusCode).toBe(400);
  });

  it("charges as CSV: a header of the record's fields, formulas neutralised, the same records as the list", async () => {
    const res = await w.call('GET', '/v1/ops/charges/export?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body.trimEnd().split('\n');
    const listed = (await walkList('/v1/ops/charges')) as { id: string; name: string }[];
    expect(lines[0].split(',').slice(0, 2)).toEqual(['id', 'name']);
    expect(lines).toHaveLength(listed.length + 1);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(listed.map((c) => c.id));
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });

  it('products, packages and movements export what their lists show', async () => {
    for (const path of ['/v1/ops/products', '/v1/ops/packages', '/v1/ops/inventory/movements']) {
      const res = await w.call('GET', `${path}/export`);
      expect(res.statusCode, path).toBe(200);
      expect(ndjson(res.body), path).toEqual(await walkList(path));
    }
    const sku = await w.call('GET', '/v1/ops/inventory/movements/export?sku=%3DMUG&kind=RECEIVED');
    expect(ndjson(sku.body).map((m) => m.product_id)).toEqual([productId]);
  });

  it(`counts one request per ${RECORDS_PER_REQUEST} records against the key`, async () => {
    // 2 * RECORDS_PER_REQUEST + 1 ledger rows: the request pays for the first block, two more blocks follow.
    const rows = 2 * RECORDS_PER_REQUEST + 1;
    const data = Array.from({ length: rows }, (_, i) => ({
      product_id: productId,
      sku: 'BULK',
      warehouse_id: w.east,
      bucket: 'on_hand' as const,
      delta: 0,
      kind: 'ADJUSTED' as const,
      created_at: new Date(T0 - i * 1000),
    }));
    for (let i = 0; i < rows; i += 5000) await w.t.db.prisma.inventoryMovement.createMany({ data: data.slice(i, i + 5000) });
    const { token } = await w.t.key({ tier: 1 }); // 30 requests a minute
    const res = await w.call('GET', '/v1/ops/inventory/movements/export?sku=BULK', undefined, token);
    expect(res.statusCode).toBe(200);
    expect(ndjson(res.body)).toHaveLength(rows);
    expect(res.headers['x-ratelimit-remaining']).toBe('29');
    const next = await w.call('GET', '/v1/me', undefined, token);
    // 1 (the export) + 2 further blocks + 1 (this request), all in one window.
    expect(next.headers['x-ratelimit-remaining']).toBe('26');
  }, 120_000);

  it('is not offered to agents (they page the list)', async () => {
    const names = w.t.app.agentCatalog().operations.map((o) => o.key);
    expect(names).toContain('GET /v1/ops/orders/list');
    expect(names.filter((n) => n.endsWith('/export'))).toEqual([]);
    const doc = (await w.call('GET', '/v1/swagger.json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/ops/orders/export',
        '/ops/products/export',
        '/ops/inventory/movements/export',
        '/ops/charges/export',
        '/ops/packages/export',
      ]),
    );
  });
});
