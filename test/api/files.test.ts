import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';

const FILE_FIELDS = [
  'id',
  'name',
  'description',
  'url',
  'thumbnail_url',
  'preview_blur_hash',
  'mimetype',
  'size',
  'file_category',
  'processing_status',
  'tags',
  'team_id',
  'created_at',
  'updated_at',
  'processing_error', // extension: why processing_status is FAILED (docs/files.md)
].sort();

let t: TestApp;
let token: string;
let otherToken: string;
const ids: Record<string, string> = {};

const SEED = [
  { name: 'Invoice March.pdf', mimetype: 'application/pdf', size: 5_000 },
  { name: 'packing-slip-1001.pdf', mimetype: 'application/pdf', size: 120 },
  { name: 'Pallet photo.JPG', mimetype: 'image/jpeg', size: 3_000_000_000 }, // > 2 GiB: 64-bit sizes
  { name: 'label_1Z999.png', mimetype: 'image/png', size: 800 },
  { name: 'Readme 100%.txt', mimetype: 'text/plain', size: 42 },
];

const names = (body: { data: Array<{ name: string }> }) => body.data.map((f) => f.name);

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  const otherTeam = await teams.createTeam(t.db, { name: 'Other DC', kind: 'FULFILLER' });
  otherToken = (await t.key({ teamId: otherTeam.id, tier: 4 })).token;
  for (const f of SEED) {
    await new Promise((r) => setTimeout(r, 3)); // distinct created_at
    const res = await t.call('POST', '/v1/ops/files', {
      token,
      body: { ...f, url: `https://files.example.com/${encodeURIComponent(f.name)}` },
    });
    expect(res.statusCode).toBe(201);
    ids[f.name] = res.json().id;
  }
  await t.call('POST', '/v1/ops/files', {
    token: otherToken,
    body: { name: 'Invoice other team.pdf', url: 'https://x.example.com/a.pdf', mimetype: 'application/pdf', size: 9 },
  });
});
afterAll(() => t?.close());

describe('POST /v1/ops/files and GET one', () => {
  it('registers a file record and returns exactly the 2.9 fields (no supported_actions)', async () => {
    const res = await t.call('POST', '/v1/ops/files', {
      token,
      body: {
        name: 'Contract.pdf',
        url: 'https://files.example.com/contract.pdf',
        mimetype: 'application/pdf',
        size: 1234,
        description: 'Signed',
        tags: ['legal', 'legal', '2024'],
        file_category: 'DOCUMENT',
      },
    });
    expect(res.statusCode).toBe(201);
    const f = res.json();
    expect(Object.keys(f).sort()).toEqual(FILE_FIELDS);
    expect(f).toMatchObject({
      name: 'Contract.pdf',
      description: 'Signed',
      size: 1234,
      mimetype: 'application/pdf',
      tags: ['legal', '2024'],
      file_category: 'DOCUMENT',
      processing_status: 'PENDING',
      thumbnail_url: null,
      preview_blur_hash: null,
      team_id: t.teamId,
    });
    const one = await t.call('GET', `/v1/ops/files/${f.id}`, { token });
    expect(one.json()).toEqual(f);
    await t.db.prisma.file.delete({ where: { id: f.id } });
  });

  it('validates the body', async () => {
    const base = { name: 'a', url: 'https://x.example.com/a', mimetype: 'text/plain', size: 1 };
    for (const body of [
      { ...base, url: 'ftp://x/a' },
      { ...base, size: -1 },
      { ...base, mimetype: 'nope' },
      { ...base, extra: 1 },
      { ...base, file_category: 'MOVIE' },
      { name: 'only' },
    ]) {
      const res = await t.call('POST', '/v1/ops/files', { token, body });
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe('urn:fos:error:validation-failed');
    }
  });

  it('an empty request (no body, no content type) is 415, an empty JSON body 400: never 500 (issue 23 item 4)', async () => {
    const empty = await t.app.inject({ method: 'POST', url: '/v1/ops/files', headers: { 'x-access-token': token } });
    expect(empty.statusCode, empty.body).toBe(415);
    expect(empty.json().type).toBe('urn:fos:error:unsupported-media-type');
    const emptyJson = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/files',
      headers: { 'x-access-token': token, 'content-type': 'application/json' },
      payload: '',
    });
    expect(emptyJson.statusCode, emptyJson.body).toBe(400);
    expect(emptyJson.json().errors[0].path).toBe('body');
  });

  it("answers 404 for another team's file", async () => {
    expect((await t.call('GET', `/v1/ops/files/${ids['Invoice March.pdf']}`, { token: otherToken })).statusCode).toBe(404);
    expect(
      (await t.call('PATCH', `/v1/ops/files/${ids['Invoice March.pdf']}`, { token: otherToken, body: { name: 'x' } })).statusCode,
    ).toBe(404);
    expect((await t.call('GET', '/v1/ops/files/nope', { token })).statusCode).toBe(404);
  });
});

describe('GET /v1/ops/files', () => {
  it("lists this team's files newest first with supported_actions on each", async () => {
    const res = await t.call('GET', '/v1/ops/files', { token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(names(body)).toEqual(SEED.map((f) => f.name).reverse());
    expect(Object.keys(body.data[0]).sort()).toEqual([...FILE_FIELDS, 'supported_actions'].sort());
    expect(body.data[0].supported_actions).toEqual([{ action: 'VIEW_FILE' }]);
    expect(body.data.find((f: { name: string }) => f.name === 'Pallet photo.JPG').size).toBe(3_000_000_000);
    expect(body.meta).toEqual({
      page: 0,
      page_size: 20,
      start_index: 1,
      end_index: 5,
      has_next_page: false,
      next_cursor: null,
      has_previous_page: false,
    });
  });

  it('searches names case-insensitively, literally', async () => {
    expect(names((await t.call('GET', '/v1/ops/files', { token, query: { search: 'INVOICE' } })).json())).toEqual(['Invoice March.pdf']);
    expect(names((await t.call('GET', '/v1/ops/files', { token, query: { search: 'photo.jpg' } })).json())).toEqual(['Pallet photo.JPG']);
    expect(names((await t.call('GET', '/v1/ops/files', { token, query: { search: '100%' } })).json())).toEqual(['Readme 100%.txt']);
    expect(names((await t.call('GET', '/v1/ops/files', { token, query: { search: '_1z' } })).json())).toEqual(['label_1Z999.png']);
    expect(names((await t.call('GET', '/v1/ops/files', { token, query: { search: '' } })).json())).toHaveLength(5);
  });

  it('filters by a comma list of mimetypes (and type/* families) and min_size', async () => {
    const pdfPng = names(
      (
        await t.call('GET', '/v1/ops/files', { token, query: { mimetype: 'application/pdf, image/png', order_by: 'name', order: 'asc' } })
      ).json(),
    );
    expect(pdfPng).toEqual(['Invoice March.pdf', 'label_1Z999.png', 'packing-slip-1001.pdf']);
    const images = names(
      (await t.call('GET', '/v1/ops/files', { token, query: { mimetype: 'image/*', order_by: 'size', order: 'asc' } })).json(),
    );
    expect(images).toEqual(['label_1Z999.png', 'Pallet photo.JPG']);
    const big = names((await t.call('GET', '/v1/ops/files', { token, query: { min_size: 800, order_by: 'size', order: 'asc' } })).json());
    expect(big).toEqual(['label_1Z999.png', 'Invoice March.pdf', 'Pallet photo.JPG']);
    expect(names((await t.call('GET', '/v1/ops/files', { token, query: { min_size: 800.5, mimetype: 'image/png' } })).json())).toEqual([]);
    expect((await t.call('GET', '/v1/ops/files', { token, query: { min_size: -1 } })).statusCode).toBe(400);
  });

  it('sorts by name, size, created_at and updated_at in both directions and pages', async () => {
    const byName = names((await t.call('GET', '/v1/ops/files', { token, query: { order_by: 'name', order: 'asc' } })).json());
    expect(byName).toEqual([...byName].sort());
    const bySizeDesc = (await t.call('GET', '/v1/ops/files', { token, query: { order_by: 'size', order: 'desc' } })).json();
    expect(bySizeDesc.data.map((f: { size: number }) => f.size)).toEqual([3_000_000_000, 5000, 800, 120, 42]);
    const oldest = names((await t.call('GET', '/v1/ops/files', { token, query: { order_by: 'created_at', order: 'asc' } })).json());
    expect(oldest).toEqual(SEED.map((f) => f.name));

    await new Promise((r) => setTimeout(r, 5));
    await t.call('PATCH', `/v1/ops/files/${ids['packing-slip-1001.pdf']}`, { token, body: { tags: ['touched'] } });
    const recent = names(
      (await t.call('GET', '/v1/ops/files', { token, query: { order_by: 'updated_at', order: 'desc', limit: 1 } })).json(),
    );
    expect(recent).toEqual(['packing-slip-1001.pdf']);

    const p1 = (await t.call('GET', '/v1/ops/files', { token, query: { order_by: 'size', order: 'asc', limit: 2, page: 1 } })).json();
    expect(p1.data.map((f: { size: number }) => f.size)).toEqual([800, 5000]);
    expect(p1.meta).toEqual({
      page: 1,
      page_size: 2,
      start_index: 3,
      end_index: 4,
      has_next_page: true,
      next_cursor: expect.any(String),
      has_previous_page: true,
    });
    for (const query of [{ order_by: 'mimetype' }, { order: 'up' }, { limit: 0 }, { limit: 101 }, { page: -1 }] as Array<
      Record<string, string | number>
    >) {
      expect((await t.call('GET', '/v1/ops/files', { token, query })).statusCode).toBe(400);
    }
  });
});

describe('PATCH /v1/ops/files/{file_id}', () => {
  it('changes name, description, tags and file_category only', async () => {
    const id = ids['Invoice March.pdf']!;
    const res = await t.call('PATCH', `/v1/ops/files/${id}`, {
      token,
      body: { name: 'Invoice April.pdf', description: 'corrected', tags: ['finance'], file_category: 'INVOICE' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Invoice April.pdf',
      description: 'corrected',
      tags: ['finance'],
      file_category: 'INVOICE',
      size: 5000,
    });
    expect(Object.keys(res.json()).sort()).toEqual(FILE_FIELDS);
    expect(names((await t.call('GET', '/v1/ops/files', { token, query: { search: 'april' } })).json())).toEqual(['Invoice April.pdf']);
    const cleared = await t.call('PATCH', `/v1/ops/files/${id}`, { token, body: { description: null } });
    expect(cleared.json().description).toBeNull();
    for (const body of [{ url: 'https://evil.example.com' }, { size: 1 }, {}, { tags: 'x' }]) {
      expect((await t.call('PATCH', `/v1/ops/files/${id}`, { token, body })).statusCode).toBe(400);
    }
    const row = await t.db.prisma.file.findUniqueOrThrow({ where: { id } });
    expect(row.url).toBe('https://files.example.com/Invoice%20March.pdf');
    expect(row.name).toBe('Invoice April.pdf');
  });
});

describe('permissions', () => {
  it('needs READ_FILES / WRITE_FILES and a fulfiller key', async () => {
    const reader = await t.key({ permissions: ['READ_FILES'] });
    expect((await t.call('GET', '/v1/ops/files', { token: reader.token })).statusCode).toBe(200);
    expect(
      (await t.call('PATCH', `/v1/ops/files/${ids['label_1Z999.png']}`, { token: reader.token, body: { name: 'x' } })).statusCode,
    ).toBe(403);
    expect(
      (
        await t.call('POST', '/v1/ops/files', {
          token: reader.token,
          body: { name: 'a', url: 'https://x.example.com/a', mimetype: 'text/plain', size: 1 },
        })
      ).statusCode,
    ).toBe(403);
    const none = await t.key({ permissions: ['READ_CHARGES'] });
    expect((await t.call('GET', '/v1/ops/files', { token: none.token })).statusCode).toBe(403);
    const m = await t.merchant();
    expect((await t.call('GET', '/v1/ops/files', { token: m.token })).statusCode).toBe(403);
  });
});
