import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isBlurhashValid } from 'blurhash';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/domain/teams/teams.js';
import { testApp, type TestApp } from '../helpers/app.js';

// Uploads (POST /v1/ops/files, multipart): the type comes from the bytes, executables are
// refused by content, the size limit holds, images become READY with a thumbnail and a BlurHash,
// bytes are served to the owning team only, and deleting a file removes its bytes.

let t: TestApp;
let token: string;
const LIMIT = 200_000;
beforeAll(async () => {
  t = await testApp({ maxUploadBytes: LIMIT });
  token = (await t.key({ tier: 4 })).token;
});
afterAll(() => t?.close());

/** A multipart/form-data body with the given text fields and one file part. */
function form(file: { name: string; type: string; bytes: Buffer; field?: string } | null, fields: Record<string, string> = {}) {
  const boundary = `----fos${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\ncontent-type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(file: Parameters<typeof form>[0], fields: Record<string, string> = {}, key = token) {
  const { payload, headers } = form(file, fields);
  const res = await t.app.inject({ method: 'POST', url: '/v1/ops/files', payload, headers: { ...headers, 'x-access-token': key } });
  return { status: res.statusCode, json: () => res.json(), body: res.body, headers: res.headers };
}

const get = (url: string, key = token) => t.app.inject({ method: 'GET', url, headers: { 'x-access-token': key } });

const png = () =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .composite([
      { input: Buffer.from('<svg width="320" height="240"><rect width="320" height="240" fill="#f80"/></svg>'), top: 0, left: 0 },
    ])
    .png()
    .toBuffer();

describe('file uploads', () => {
  it('an image named anything is stored as what it is, then becomes READY with a thumbnail and a BlurHash', async () => {
    const bytes = await png();
    const res = await upload(
      { name: 'scan.txt', type: 'text/plain', bytes },
      { name: 'Dock photo', tags: 'dock, damage,dock', description: 'pallet 7' },
    );
    expect(res.status, res.body).toBe(201);
    const file = res.json();
    expect(file).toMatchObject({
      name: 'Dock photo',
      mimetype: 'image/png',
      size: bytes.length,
      file_category: 'IMAGE',
      tags: ['dock', 'damage'],
      description: 'pallet 7',
      processing_status: 'PENDING',
      thumbnail_url: null,
      preview_blur_hash: null,
    });
    expect(file.url).toMatch(new RegExp(`^https?://[^/]+/v1/ops/files/${file.id}/content$`));

    await t.app.files.processor.kick();
    const ready = (await get(`/v1/ops/files/${file.id}`)).json();
    expect(ready).toMatchObject({ processing_status: 'READY', processing_error: null });
    expect(isBlurhashValid(ready.preview_blur_hash).result).toBe(true);
    expect(ready.thumbnail_url).toMatch(new RegExp(`/v1/ops/files/${file.id}/thumbnail$`));

    const content = await get(new URL(file.url).pathname);
    expect(content.statusCode).toBe(200);
    expect(content.headers['content-type']).toBe('image/png');
    expect(content.headers['x-content-type-options']).toBe('nosniff');
    expect(content.rawPayload.equals(bytes)).toBe(true);
    const thumb = await get(new URL(ready.thumbnail_url).pathname);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 320, height: 240 });

    const events = await t.db.prisma.outboxEvent.findMany({ where: { kind: 'file.processed' } });
    expect(events.map((e) => e.payload)).toContainEqual(expect.objectContaining({ file_id: file.id, processing_status: 'READY' }));
  });

  it('refuses an executable or a script by its content, whatever its name and type', async () => {
    const before = await t.db.prisma.file.count();
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120, 1)]);
    const mz = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62, 0), Buffer.from('PE\0\0'), Buffer.alloc(300, 7)]);
    mz.writeUInt32LE(64, 0x3c);
    for (const bytes of [elf, mz, Buffer.from('#!/bin/sh\nrm -rf /\n')]) {
      const res = await upload({ name: 'invoice.pdf', type: 'application/pdf', bytes });
      expect(res.status, res.body).toBe(415);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().detail).toMatch(/executable|script/);
    }
    expect(await t.db.prisma.file.count()).toBe(before);
  });

  it('text becomes text/csv or text/plain; an image that does not decode is FAILED with the reason', async () => {
    const csv = await upload({ name: 'counts.csv', type: 'application/octet-stream', bytes: Buffer.from('sku,counted\nMUG,4\n') });
    expect(csv.json()).toMatchObject({ mimetype: 'text/csv', processing_status: 'READY', file_category: 'DOCUMENT' });
    const broken = (await png()).subarray(0, 60); // a PNG cut short: recognised, but it does not decode
    const bad = await upload({ name: 'x.png', type: 'image/png', bytes: broken });
    expect(bad.json()).toMatchObject({ mimetype: 'image/png', processing_status: 'PENDING' });
    await t.app.files.processor.kick();
    const failed = (await get(`/v1/ops/files/${bad.json().id}`)).json();
    expect(failed.processing_status).toBe('FAILED');
    expect(failed.processing_error).toEqual(expect.any(String));
    expect(failed.thumbnail_url).toBeNull();
  });

  it('over the size limit is a 413 and leaves nothing behind; bad forms are 400', async () => {
    const before = await t.db.prisma.file.count();
    const big = await upload({ name: 'big.bin', type: 'application/octet-stream', bytes: Buffer.alloc(LIMIT + 10, 65) });
    expect(big.status, big.body).toBe(413);
    expect(await t.db.prisma.file.count()).toBe(before);
    const dir = (t.app.files.storage as unknown as { dir: string }).dir;
    const left = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.part'));
    expect(left).toEqual([]);
    expect((await upload(null, { name: 'x' })).status).toBe(400);
    expect((await upload({ name: 'a.txt', type: 'text/plain', bytes: Buffer.from('hi') }, { colour: 'red' })).status).toBe(400);
    expect((await upload({ name: 'a.txt', type: 'text/plain', bytes: Buffer.from('hi'), field: 'attachment' })).status).toBe(400);
    expect((await upload({ name: 'a.txt', type: 'text/plain', bytes: Buffer.from('hi') }, { file_category: 'POSTER' })).status).toBe(400);
    expect((await upload({ name: 'a.txt', type: 'text/plain', bytes: Buffer.alloc(0) })).status).toBe(400);
  });

  it('serves the bytes to the owning team only, needs the permissions, and delete removes the bytes', async () => {
    const res = await upload({ name: 'note.txt', type: 'text/plain', bytes: Buffer.from('hello dock') });
    const file = res.json();
    const other = await t.key({ teamId: (await createTeam(t.db, { name: 'Elsewhere', kind: 'FULFILLER' })).id, tier: 4 });
    expect((await get(`/v1/ops/files/${file.id}/content`, other.token)).statusCode).toBe(404);
    expect((await get(`/v1/ops/files/${file.id}/thumbnail`)).statusCode).toBe(404); // not an image
    const reader = await t.key({ permissions: ['READ_FILES'] });
    expect((await get(`/v1/ops/files/${file.id}/content`, reader.token)).body).toBe('hello dock');
    expect((await upload({ name: 'n.txt', type: 'text/plain', bytes: Buffer.from('x') }, {}, reader.token)).status).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/ops/files/${file.id}`, headers: { 'x-access-token': other.token } })).statusCode,
    ).toBe(404);

    const dir = (t.app.files.storage as unknown as { dir: string }).dir;
    const bytesAt = path.join(dir, t.teamId, file.id);
    expect((await readdir(path.dirname(bytesAt))).includes(file.id)).toBe(true);
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/ops/files/${file.id}`, headers: { 'x-access-token': token } });
    expect(del.statusCode).toBe(204);
    expect((await readdir(path.dirname(bytesAt))).includes(file.id)).toBe(false);
    expect((await get(`/v1/ops/files/${file.id}/content`)).statusCode).toBe(404);
  });

  it('a multipart body anywhere else is a 415 problem: only the upload route reads forms', async () => {
    const { payload, headers } = form({ name: 'a.csv', type: 'text/csv', bytes: Buffer.from('sku\nA\n') });
    const res = await t.app.inject({ method: 'POST', url: '/v1/ops/products', payload, headers: { ...headers, 'x-access-token': token } });
    expect(res.statusCode).toBe(415);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 415 });
  });
});
