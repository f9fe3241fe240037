import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';
import { searchKey } from '../../src/domain/search.js';

// Keyset paging of the package, charge and file lists (issue 9): walking every sort (and the
// filters with their own query paths: status, category, merchant, scan form, mimetype families,
// min_size, search) by meta.next_cursor gives every row once, in the list's order, the same as
// one large page. Rows share timestamps, names and sizes, so the id tie-breaker decides ties.

let t: TestApp;
let token: string;
let merchants: string[];
const T0 = Date.parse('2026-03-01T10:00:00Z');
const at = (i: number) => new Date(T0 + Math.floor(i / 3) * 60_000); // three rows per timestamp

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  merchants = [(await t.merchant()).teamId, (await t.merchant()).teamId];
  const other = await teams.createTeam(t.db, { name: 'Other DC', kind: 'FULFILLER' }); // rows no list may show
  const p = t.db.prisma;
  for (const [team, n] of [
    [t.teamId, 23],
    [other.id, 3],
  ] as const) {
    for (let i = 0; i < n; i++) {
      await p.package.create({
        data: {
          fulfiller_team_id: team,
          merchant_team_id: merchants[i % 2],
          status: i % 4 === 0 ? 'PENDING' : 'FULFILLED',
          scan_form_id: i % 3 === 0 ? 'form-a' : null,
          created_at: at(i),
          updated_at: at(i),
        },
      });
      await p.charge.create({
        data: {
          name: `Charge ${i}`,
          category: ['SHIPPING', 'STORAGE', 'RECEIVING'][i % 3],
          quantity: 1,
          calculated_amount: i,
          original_amount: i,
          merchant_team_id: merchants[i % 2],
          fulfiller_team_id: team,
          order_id: i % 5 === 0 ? '01900000-0000-7000-8000-00000000000a' : null,
          created_at: at(i),
          updated_at: at(i),
        },
      });
      const name = `File ${String(i % 7).padStart(2, '0')}.dat`; // equal names
      await p.file.create({
        data: {
          team_id: team,
          name,
          url: `https://files.example/${i}`,
          mimetype: ['application/pdf', 'image/png', 'image/jpeg', 'text/csv'][i % 4],
          size: BigInt(1000 * (i % 5)),
          tags: [],
          search_text: searchKey(name),
          created_at: at(i),
          updated_at: at(22 - i),
        },
      });
    }
  }
});
afterAll(() => t?.close());

/** Every page of `path?query` by cursor, `limit` per page: the ids in order, and the last page's meta. */
async function walk(path: string, query: string, limit: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let meta: any;
  for (let i = 0; i < 100; i++) {
    const res = await t.call('GET', `${path}?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    ids.push(...body.data.map((r: { id: string }) => r.id));
    meta = body.meta;
    if (i > 0) expect(meta.has_previous_page).toBe(true);
    cursor = meta.next_cursor;
    if (!cursor) break;
  }
  expect(meta.has_next_page).toBe(false);
  return ids;
}

/** The rows of one large page, the ids of a cursor walk at 1, 2 and 5 per page equal them, once each. */
async function walksMatch(path: string, query: string, expected: (rows: any[]) => void) {
  const all = (await t.call('GET', `${path}?${query}&limit=100`, { token })).json().data;
  expected(all);
  for (const limit of [1, 2, 5]) {
    const ids = await walk(path, query, limit);
    expect(ids).toEqual(all.map((r: { id: string }) => r.id));
    expect(new Set(ids).size).toBe(ids.length);
  }
  return all;
}

const sortedBy = (key: string, dir: 'asc' | 'desc') => (rows: any[]) => {
  const sign = dir === 'asc' ? 1 : -1;
  const value = (r: any) => (key.endsWith('_at') ? Date.parse(r[key]) : r[key]);
  const again = [...rows].sort((a, b) => (value(a) < value(b) ? -sign : value(a) > value(b) ? sign : a.id < b.id ? -sign : sign));
  expect(rows.map((r) => r.id)).toEqual(again.map((r) => r.id));
};

describe('packages: cursor walks', () => {
  it.each([
    ['', 23],
    ['status=PENDING', 6],
    ['status=FULFILLED', 17],
    ['status=PENDING,FULFILLED', 23],
    ['scan_form_id=form-a', 8],
    ['scan_form_id=form-a&status=FULFILLED', 6],
  ])('%s: every row once, newest first', async (query, n) => {
    const rows = await walksMatch('/v1/ops/packages', query, sortedBy('created_at', 'desc'));
    expect(rows).toHaveLength(n);
  });
});

describe('charges: cursor walks', () => {
  it.each([
    ['order=desc', 23],
    ['order=asc', 23],
    ['category=STORAGE', 8],
    ['category=RECEIVING&order=asc', 7],
    ['merchant=0&order=asc', 12],
    ['merchant=1&category=SHIPPING', 4],
    ['order_id=01900000-0000-7000-8000-00000000000a', 5],
  ])('%s: every row once, in created_at order', async (query, n) => {
    const q = query.replace(/merchant=(\d)/, (_, i) => `merchant_team_id=${merchants[Number(i)]}`);
    const rows = await walksMatch('/v1/ops/charges', q, sortedBy('created_at', query.includes('order=asc') ? 'asc' : 'desc'));
    expect(rows).toHaveLength(n);
  });
});

describe('files: cursor walks', () => {
  const sorts = ['created_at', 'updated_at', 'name', 'size'].flatMap((by) => (['asc', 'desc'] as const).map((dir) => [by, dir] as const));
  it.each(sorts)('order_by=%s&order=%s: every row once, in order', async (by, dir) => {
    const rows = await walksMatch('/v1/ops/files', `order_by=${by}&order=${dir}`, sortedBy(by, dir));
    expect(rows).toHaveLength(23);
  });

  // A family, several types, min_size and search each have their own query path (an index range,
  // the few-matches lookup, the search index on SQLite): the walks must agree with them too.
  it.each([
    ['mimetype=image/*&order_by=name&order=asc', 12],
    ['mimetype=image/png,text/csv&order_by=size&order=desc', 11],
    ['mimetype=image/png&order_by=updated_at&order=asc', 6],
    ['min_size=3000&order_by=name&order=desc', 8],
    ['min_size=2000&mimetype=image/*&order_by=created_at&order=asc', 7],
    ['search=file 03&order_by=size&order=asc', 3],
    ['search=.dat&mimetype=application/pdf&order_by=name&order=desc', 6],
    ['mimetype=video/*', 0],
  ])('%s: every row once, in order', async (query, n) => {
    const by = /order_by=(\w+)/.exec(query)?.[1] ?? 'created_at';
    const dir = (/order=(asc|desc)/.exec(query)?.[1] ?? 'desc') as 'asc' | 'desc';
    const rows = await walksMatch('/v1/ops/files', query, sortedBy(by, dir));
    expect(rows).toHaveLength(n);
  });
});
