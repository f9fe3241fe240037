import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { listOrders } from '../../src/domain/orders/orders.js';
import { numberColumns } from '../../src/domain/orders/numbers.js';
import { searchKey } from '../../src/domain/search.js';

// The search indexes of SQLite (orders here; products: test/api/products-list.test.ts searches) (migration order_list_indexes): an FTS5 trigram table kept in
// step with orders by triggers. A later migration that rebuilds "orders" (SQLite's RedefineTables)
// drops its triggers with the old table; the first test fails then, so they get re-created.

let t: TestApp;
let merchant: string;
let n = 0;
beforeAll(async () => {
  t = await testApp();
  merchant = (await t.merchant()).teamId;
});
afterAll(() => t?.close());

const order = (name: string, extra: Record<string, unknown> = {}) => ({
  ...numberColumns(`#${7000 + ++n}`),
  merchant_team_id: merchant,
  fulfiller_team_id: t.teamId,
  tags: [],
  line_item_image_urls: [],
  customer_name: name,
  search_text: searchKey(`${name} ${name.split(' ')[0]}@example.com`),
  ...extra,
});
const search = async (term: string) =>
  (await listOrders(t.db, t.teamId, { page: 0, limit: 100, search: term })).data
    .map((o: { customer_name: string | null }) => o.customer_name)
    .sort();

describe.runIf(process.env.FOS_TEST_DB !== 'postgres')('order search index (SQLite)', () => {
  it('exists after every migration: the FTS tables of orders, products and files and their triggers', async () => {
    const rows = await t.db.prisma.$queryRawUnsafe<{ type: string; name: string }[]>(
      "SELECT type, name FROM sqlite_master WHERE name LIKE 'order_search%' OR name LIKE 'orders_search_%' ORDER BY name",
    );
    expect(rows.map((r) => r.name)).toEqual(
      expect.arrayContaining(['order_search', 'order_search_ids', 'orders_search_delete', 'orders_search_insert', 'orders_search_update']),
    );
    const products = await t.db.prisma.$queryRawUnsafe<{ name: string }[]>(
      "SELECT name FROM sqlite_master WHERE name LIKE 'product_search%' OR name LIKE 'products_search_%' ORDER BY name",
    );
    expect(products.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'product_search',
        'product_search_ids',
        'products_search_delete',
        'products_search_insert',
        'products_search_update',
      ]),
    );
    const files = await t.db.prisma.$queryRawUnsafe<{ name: string }[]>(
      "SELECT name FROM sqlite_master WHERE name LIKE 'file_search%' OR name LIKE 'files_search_%' ORDER BY name",
    );
    expect(files.map((r) => r.name)).toEqual(
      expect.arrayContaining(['file_search', 'file_search_ids', 'files_search_delete', 'files_search_insert', 'files_search_update']),
    );
  });

  it('files: the search follows uploads by URL, renames and deletes (migration record_list_indexes)', async () => {
    const names = async (term: string) =>
      (await t.call('GET', `/v1/ops/files?search=${encodeURIComponent(term)}&limit=100`))
        .json()
        .data.map((f: { name: string }) => f.name)
        .sort();
    const made = await t.call('POST', '/v1/ops/files', {
      body: { name: 'Quokka manifest.pdf', url: 'https://files.example/q.pdf', mimetype: 'application/pdf', size: 10 },
    });
    expect(made.statusCode, made.body).toBe(201);
    await t.call('POST', '/v1/ops/files', {
      body: { name: 'Other.pdf', url: 'https://files.example/o.pdf', mimetype: 'application/pdf', size: 10 },
    });
    expect(await names('okka man')).toEqual(['Quokka manifest.pdf']);
    expect((await t.call('PATCH', `/v1/ops/files/${made.json().id}`, { body: { name: 'Wombat manifest.pdf' } })).statusCode).toBe(200);
    expect(await names('okka')).toEqual([]);
    expect(await names('wombat')).toEqual(['Wombat manifest.pdf']);
    expect(await names('wo')).toEqual(['Wombat manifest.pdf']); // 2 characters: LIKE
    expect((await t.call('DELETE', `/v1/ops/files/${made.json().id}`)).statusCode).toBe(204);
    expect(await names('wombat')).toEqual([]);
    expect(await names('other')).toEqual(['Other.pdf']);
  });

  it('files: a term matching more files than Prisma bound by default (999) but fewer than the lookup cap pages them all', async () => {
    await t.db.prisma.file.createMany({
      data: Array.from({ length: 1200 }, (_, i) => ({
        team_id: t.teamId,
        name: `Walrus ${String(i).padStart(4, '0')}.png`,
        url: `https://files.example/w${i}`,
        mimetype: 'image/png',
        size: BigInt(i),
        tags: [],
        search_text: searchKey(`Walrus ${String(i).padStart(4, '0')}.png`),
      })),
    });
    const page = await t.call('GET', '/v1/ops/files?search=walrus&order_by=name&order=desc&limit=3');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.map((f: { name: string }) => f.name)).toEqual(['Walrus 1199.png', 'Walrus 1198.png', 'Walrus 1197.png']);
  });

  it('follows inserts, changes and deletes, and survives VACUUM', async () => {
    const a = await t.db.prisma.order.create({ data: order('Xanthippe Quillfeather') });
    await t.db.prisma.order.create({ data: order('Bob Smith') });
    expect(await search('quillf')).toEqual(['Xanthippe Quillfeather']);
    await t.db.prisma.order.update({
      where: { id: a.id },
      data: { customer_name: 'Zed Q', search_text: searchKey('Zed Quorum zed@example.com') },
    });
    expect(await search('quillf')).toEqual([]);
    expect(await search('quorum')).toEqual(['Zed Q']);
    await t.db.prisma.$executeRawUnsafe('VACUUM');
    expect(await search('quorum')).toEqual(['Zed Q']);
    await t.db.prisma.order.delete({ where: { id: a.id } });
    expect(await search('quorum')).toEqual([]);
    expect(await search('smith')).toEqual(['Bob Smith']);
  });

  it('a term matching more orders than the index lookup takes is still searched, exactly', async () => {
    await t.db.prisma.order.createMany({ data: Array.from({ length: 2100 }, (_, i) => order(`Common Jones ${i}`)) });
    const page = await listOrders(t.db, t.teamId, { page: 0, limit: 20, search: 'jones' });
    expect(page.data).toHaveLength(20);
    expect(page.meta.has_next_page).toBe(true);
    expect(await search('jones 2099')).toEqual(['Common Jones 2099']);
  });

  it('products: the ops and merchant searches follow changes; terms under 3 characters still search (LIKE)', async () => {
    const names = async (path: string, term: string) =>
      (await t.call('GET', `${path}?search=${encodeURIComponent(term)}&limit=100`, path.includes('merchant') ? { token: m.token } : {}))
        .json()
        .data.map((p: { name: string }) => p.name)
        .sort();
    const m = await t.merchant();
    const made = await t.call('POST', '/v1/ops/products', {
      body: { name: 'Quokka Lamp', sku: 'QL-1', type: 'STANDARD', barcode: 'BC-77881', merchant_team_id: m.teamId },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(await names('/v1/ops/products', 'okka')).toEqual(['Quokka Lamp']);
    expect(await names('/v1/ops/products', '77881')).toEqual(['Quokka Lamp']); // barcode: ops only
    expect(await names('/v1/merchant/products', 'okka')).toEqual(['Quokka Lamp']);
    expect(await names('/v1/merchant/products', '77881')).toEqual([]);
    expect(await names('/v1/ops/products', 'ql')).toContain('Quokka Lamp');
    const renamed = await t.call('PATCH', `/v1/merchant/products/${made.json().id}`, { token: m.token, body: { name: 'Wombat Lamp' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await names('/v1/ops/products', 'okka')).toEqual([]);
    expect(await names('/v1/merchant/products', 'wombat')).toEqual(['Wombat Lamp']);
  });
});
