import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

// The ops product list across the caller's own team and its delegated merchants. On SQLite it is
// one ordered query per team, merged (src/domain/products/products.ts): pages, cursors and both
// sorts in both directions must give exactly the order of one sorted list, with ties on the
// timestamp broken by id, and no product twice or missing. On PostgreSQL too, where a filtered
// list's walks are ordered by the database when two teams' rows tie on the key, else merged in JS.
// Unfiltered lists are one statement (products/store/list.ts; an OFFSET page there bounds each team's walk).

let t: TestApp;
let token: string;
const all: { id: string; created_at: string; updated_at: string }[] = [];

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  const merchants = [(await t.merchant()).teamId, (await t.merchant()).teamId];
  // Six more with distinct timestamps (no tie across teams), only found by search=solo.
  for (let i = 0; i < 6; i++) {
    const res = await t.call('POST', '/v1/ops/products', {
      token,
      body: { name: `Solo ${i}`, type: 'STANDARD', ...(i % 3 ? { merchant_team_id: merchants[(i % 3) - 1] } : {}) },
    });
    expect(res.statusCode, res.body).toBe(201);
    await t.db.prisma.product.update({
      where: { id: res.json().id },
      data: { created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, 0, 7 * i)), updated_at: new Date(Date.UTC(2025, 5, 1, i)) },
    });
  }
  for (let i = 0; i < 17; i++) {
    const merchant_team_id = i % 3 === 0 ? undefined : merchants[(i % 3) - 1];
    const res = await t.call('POST', '/v1/ops/products', {
      token,
      body: { name: `Merge ${i}`, sku: `MRG-${i}`, type: 'STANDARD', ...(merchant_team_id ? { merchant_team_id } : {}) },
    });
    expect(res.statusCode, res.body).toBe(201);
    // Timestamps shared by several products across teams, so the id tie-breaker matters.
    const at = new Date(Date.UTC(2026, 0, 1 + Math.floor(i / 3)));
    await t.db.prisma.product.update({
      where: { id: res.json().id },
      data: { created_at: at, updated_at: new Date(Date.UTC(2026, 5, 30 - (i % 5))) },
    });
    all.push({ id: res.json().id, created_at: at.toISOString(), updated_at: '' });
  }
});
afterAll(() => t?.close());

async function page(query: string) {
  const res = await t.call('GET', `/v1/ops/products?${query}`, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    data: { id: string; name: string; created_at: string; updated_at: string }[];
    meta: { next_cursor?: string | null; has_next_page: boolean };
  };
}

describe('ops product list across teams', () => {
  it.each([
    ['created_at', 'desc', ''],
    ['created_at', 'asc', ''],
    ['updated_at', 'desc', ''],
    ['updated_at', 'asc', ''],
    // Filtered: one walk per team through Prisma, merged.
    ['created_at', 'desc', '&type=STANDARD'],
    ['created_at', 'asc', '&has_image=false'],
    ['updated_at', 'desc', '&has_barcode=false'],
    ['updated_at', 'asc', '&type=STANDARD&was_inspected=false'],
  ])('order_by=%s order=%s%s: pages and cursors give one sorted order', async (orderBy, order, filter) => {
    const mine = (rows: { name: string }[]) => rows.filter((r) => r.name.startsWith('Merge '));
    const whole = mine((await page(`order_by=${orderBy}&order=${order}&limit=100${filter}`)).data);
    expect(whole).toHaveLength(17);
    const key = orderBy as 'created_at' | 'updated_at';
    const sorted = [...whole].sort((a, b) => (a[key] === b[key] ? (a.id < b.id ? -1 : 1) : a[key] < b[key] ? -1 : 1));
    if (order === 'desc') sorted.reverse();
    expect(whole.map((r) => r.id)).toEqual(sorted.map((r) => r.id));

    const byPages: string[] = [];
    for (let p = 0; p < 10; p++) {
      const res = await page(`order_by=${orderBy}&order=${order}&limit=4&page=${p}${filter}`);
      byPages.push(...res.data.map((r) => r.id));
      if (!res.meta.has_next_page) break;
    }
    const byCursor: string[] = [];
    let cursor: string | null | undefined;
    do {
      const res = await page(`order_by=${orderBy}&order=${order}&limit=3${filter}${cursor ? `&cursor=${cursor}` : ''}`);
      byCursor.push(...res.data.map((r) => r.id));
      cursor = res.meta.next_cursor;
    } while (cursor);
    const ids = new Set(whole.map((r) => r.id));
    expect(byPages.filter((id) => ids.has(id))).toEqual(whole.map((r) => r.id));
    expect(byCursor.filter((id) => ids.has(id))).toEqual(whole.map((r) => r.id));
    expect(new Set(byCursor).size).toBe(byCursor.length);
  });

  it.each([
    ['created_at', 'desc'],
    ['created_at', 'asc'],
    ['updated_at', 'desc'],
    ['updated_at', 'asc'],
  ])('search=solo order_by=%s order=%s (no tie across teams): pages and cursors give one sorted order', async (orderBy, order) => {
    const key = orderBy as 'created_at' | 'updated_at';
    const whole = (await page(`search=solo&order_by=${orderBy}&order=${order}&limit=100`)).data;
    expect(whole).toHaveLength(6);
    const sorted = [...whole].sort((a, b) => (a[key] < b[key] ? -1 : 1));
    if (order === 'desc') sorted.reverse();
    expect(whole.map((r) => r.id)).toEqual(sorted.map((r) => r.id));
    const byPages: string[] = [];
    for (let p = 0; p < 6; p++)
      byPages.push(...(await page(`search=solo&order_by=${orderBy}&order=${order}&limit=2&page=${p}`)).data.map((r) => r.id));
    expect(byPages).toEqual(whole.map((r) => r.id));
    const byCursor: string[] = [];
    let cursor: string | null | undefined;
    do {
      const res = await page(`search=solo&order_by=${orderBy}&order=${order}&limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      byCursor.push(...res.data.map((r) => r.id));
      cursor = res.meta.next_cursor;
    } while (cursor);
    expect(byCursor).toEqual(whole.map((r) => r.id));
  });
});
