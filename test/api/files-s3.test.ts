import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseS3Url, S3Storage } from '../../src/domain/files/s3-storage.js';
import { testApp, type TestApp } from '../helpers/app.js';

// Uploads kept in S3-compatible storage: a local S3 server (s3rver) stands in for S3; the same
// upload, processing, download and delete as on local storage, with the objects checked in the
// bucket through a separate S3 client.

let t: TestApp;
let token: string;
let server: S3rver;
let dir: string;
let spec: string;
const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fos-s3rver-'));
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'fos-test', configs: [] }],
  });
  const { port } = await server.run();
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  spec = `s3://fos-test/uploads?endpoint=http://127.0.0.1:${port}`;
  t = await testApp({ storage: spec });
  token = (await t.key({ tier: 4 })).token;
});
afterAll(async () => {
  await t?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
  process.env.AWS_ACCESS_KEY_ID = saved.id;
  process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
});

function form(name: string, bytes: Buffer) {
  const b = `----fos${Date.now()}`;
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${b}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${b}`, 'x-access-token': token },
  };
}

describe('uploads on S3-compatible storage', () => {
  it('parses s3:// locations', () => {
    expect(parseS3Url('s3://bucket/a/b?region=eu-west-1', {})).toEqual({
      bucket: 'bucket',
      prefix: 'a/b/',
      region: 'eu-west-1',
      endpoint: undefined,
    });
    expect(parseS3Url('s3://bucket', { AWS_ENDPOINT_URL_S3: 'http://minio:9000/' })).toMatchObject({
      prefix: '',
      endpoint: 'http://minio:9000',
    });
    expect(() => new S3Storage(parseS3Url('s3://b', {}), {})).toThrow(/AWS_ACCESS_KEY_ID/);
  });

  it('stores, processes, serves and deletes an image in the bucket', async () => {
    const bytes = await sharp({ create: { width: 500, height: 500, channels: 3, background: { r: 10, g: 200, b: 90 } } })
      .png()
      .toBuffer();
    const res = await t.app.inject({ method: 'POST', url: '/v1/ops/files', ...form('box.png', bytes) });
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json();
    expect(file).toMatchObject({ mimetype: 'image/png', size: bytes.length, processing_status: 'PENDING' });

    const bucket = new S3Storage(parseS3Url(spec));
    const key = `${t.teamId}/${file.id}`;
    expect((await bucket.open(key))?.size).toBe(bytes.length);

    await t.app.files.processor.kick();
    const ready = (await t.app.inject({ method: 'GET', url: `/v1/ops/files/${file.id}`, headers: { 'x-access-token': token } })).json();
    expect(ready.processing_status).toBe('READY');
    expect(await bucket.open(`${key}.thumb.webp`)).not.toBeNull();

    const content = await t.app.inject({ method: 'GET', url: `/v1/ops/files/${file.id}/content`, headers: { 'x-access-token': token } });
    expect(content.statusCode).toBe(200);
    expect(content.rawPayload.equals(bytes)).toBe(true);

    const del = await t.app.inject({ method: 'DELETE', url: `/v1/ops/files/${file.id}`, headers: { 'x-access-token': token } });
    expect(del.statusCode, del.body).toBe(204);
    expect(await bucket.open(key)).toBeNull();
    expect(await bucket.open(`${key}.thumb.webp`)).toBeNull();
  });
});
