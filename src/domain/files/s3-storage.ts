import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStorage } from './storage.js';

// Uploaded bytes in S3-compatible object storage (AWS S3, MinIO, Ceph, R2, …): `--storage
// s3://bucket/prefix`, credentials from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN), region from AWS_REGION (default us-east-1), and a non-AWS endpoint from
// ?endpoint=… or AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL (then addressed path-style). Requests are
// signed with SigV4 by aws4 and sent with undici. S3 needs a PUT's length up front, so an upload
// is spooled to a temporary file first (it has already been read in full when it is stored).

export interface S3Location {
  bucket: string;
  prefix: string;
  region: string;
  /** scheme://host[:port] of a non-AWS endpoint (path-style); undefined: AWS, virtual-hosted. */
  endpoint?: string;
}

type Env = Record<string, string | undefined>;

export function parseS3Url(spec: string, env: Env = process.env): S3Location {
  const url = new URL(spec);
  if (url.protocol !== 's3:' || !url.hostname) throw new Error(`not an S3 location (s3://bucket/prefix): ${spec}`);
  const endpoint = url.searchParams.get('endpoint') ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL ?? undefined;
  const prefix = decodeURIComponent(url.pathname.replace(/^\/+/, ''));
  return {
    bucket: url.hostname,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    region: url.searchParams.get('region') ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    endpoint: endpoint?.replace(/\/+$/, ''),
  };
}

export class S3Storage implements FileStorage {
  constructor(
    readonly where: S3Location,
    private readonly env: Env = process.env,
  ) {
    if (!env.AWS_ACCESS_KEY_ID || !env.AWS_SECRET_ACCESS_KEY)
      throw new Error('S3 storage needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment');
  }

  private async send(method: 'GET' | 'PUT' | 'DELETE', key: string, body?: { stream: Readable; length: number }, query = '') {
    const [{ default: aws4 }, { request }] = await Promise.all([import('aws4'), import('undici')]);
    const { bucket, prefix, region, endpoint } = this.where;
    const base = new URL(endpoint ?? `https://${bucket}.s3.${region}.amazonaws.com`);
    const objectPath = query ? (endpoint ? `/${bucket}${query}` : `/${query}`) : `${endpoint ? `/${bucket}` : ''}/${prefix}${key}`;
    const headers: Record<string, string> = { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' };
    if (body) headers['content-length'] = String(body.length);
    const signed = aws4.sign(
      { host: base.host, path: objectPath, method, service: 's3', region, headers },
      {
        accessKeyId: this.env.AWS_ACCESS_KEY_ID,
        secretAccessKey: this.env.AWS_SECRET_ACCESS_KEY,
        sessionToken: this.env.AWS_SESSION_TOKEN,
      },
    );
    return request(`${base.protocol}//${base.host}${objectPath}`, {
      method,
      headers: signed.headers as Record<string, string>,
      body: body?.stream,
    });
  }

  private static async check(res: { statusCode: number; body: { text(): Promise<string> } }, what: string) {
    if (res.statusCode < 300) return;
    const text = await res.body.text().catch(() => '');
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
    throw new Error(`S3 ${what} failed: HTTP ${res.statusCode}${code ? ` ${code}` : ''}`);
  }

  async put(key: string, source: Readable | AsyncIterable<Uint8Array>): Promise<void> {
    const dir = await mkdtemp(path.join(tmpdir(), 'fos-s3-'));
    const spool = path.join(dir, randomBytes(6).toString('hex'));
    try {
      await pipeline(source, createWriteStream(spool));
      const { size } = await stat(spool);
      const res = await this.send('PUT', key, { stream: createReadStream(spool), length: size });
      await S3Storage.check(res, `PUT ${key}`);
      await res.body.dump();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | null> {
    const res = await this.send('GET', key);
    if (res.statusCode === 404) {
      await res.body.dump();
      return null;
    }
    await S3Storage.check(res, `GET ${key}`);
    return { stream: res.body as unknown as Readable, size: Number(res.headers['content-length'] ?? 0) };
  }

  async remove(key: string): Promise<void> {
    const res = await this.send('DELETE', key);
    if (res.statusCode !== 404) await S3Storage.check(res, `DELETE ${key}`);
    await res.body.dump();
  }

  /** Keys under the prefix that start with `start` (the prefix left off), up to 1,000: ListObjectsV2's first page. */
  async list(start = ''): Promise<string[]> {
    const query = `?list-type=2&prefix=${encodeURIComponent(this.where.prefix + start)}`;
    const res = await this.send('GET', '', undefined, query);
    await S3Storage.check(res, `LIST ${this.where.prefix}${start}`);
    const xml = await res.body.text();
    return [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1].slice(this.where.prefix.length));
  }
}
