import http from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { runCli } from '../cli/helpers/cli.js';

// `fos products import` of files bigger than one request (1,000 rows), on both databases (this
// directory also runs on PostgreSQL): the CLI sends two requests at once when no SKU is in two of
// them, else one after the other in file order; failing rows are named by CSV row across chunks.
// Between the CLI and the server a proxy records, for each bulk request, how many answers had
// gone back when it arrived, and can hold the first answer until the second request is in.

let t: TestApp;
let dir: string;
let base: string;
beforeAll(async () => {
  t = await testApp();
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  dir = await mkdtemp(path.join(tmpdir(), 'fos-products-import-'));
});
afterAll(() => t?.close());

interface Proxy {
  url: string;
  /** Per bulk request, in arrival order: the answers already sent back when it arrived. */
  arrivals: number[];
  close(): void;
}

function bulkProxy({ holdFirstAnswer }: { holdFirstAnswer: boolean }): Promise<Proxy> {
  const arrivals: number[] = [];
  let answered = 0;
  let secondArrived: () => void = () => undefined;
  const second = new Promise<void>((r) => (secondArrived = r));
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const bulk = req.url === '/v1/ops/products/bulk';
    const nth = bulk ? arrivals.push(answered) : 0;
    if (nth === 2) secondArrived();
    const upstream = await fetch(`${base}${req.url}`, {
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const text = await upstream.text();
    if (nth === 1 && holdFirstAnswer) await second;
    if (bulk) answered++;
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(text);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
        arrivals,
        close: () => {
          server.close();
          server.closeAllConnections();
        },
      }),
    ),
  );
}

async function importFile(lines: string[], proxy: Proxy) {
  const file = path.join(dir, `import-${Math.random().toString(36).slice(2)}.csv`);
  await writeFile(file, ['sku,name,type,weight', ...lines].join('\n') + '\n');
  const r = await runCli(['products', 'import', file, '--format', 'json'], { env: { FOS_BASE_URL: proxy.url, FOS_API_KEY: t.adminToken } });
  return { ...r, summary: r.stdout ? JSON.parse(r.stdout) : undefined };
}

const product = (sku: string) => t.db.prisma.product.findFirstOrThrow({ where: { team_id: t.teamId, sku } });

describe('fos products import, several requests', () => {
  it('sends two requests at once when no SKU is in two of them; failing rows named by CSV row across chunks', async () => {
    const proxy = await bulkProxy({ holdFirstAnswer: true });
    try {
      const rows = Array.from({ length: 2500 }, (_, i) => `PI-${i},Item ${i},STANDARD,${i}`);
      const first = await importFile(rows, proxy);
      expect(first.code, first.stderr).toBe(0);
      expect(first.summary).toMatchObject({ rows: 2500, requests: 3, created: 2500, updated: 0, failed: 0 });
      // The second request arrived before the first was answered (the proxy held that answer until it did).
      expect(proxy.arrivals.slice(0, 2)).toEqual([0, 0]);
      expect(await product('PI-2499')).toMatchObject({ name: 'Item 2499', weight: 2499 });

      // Again with new names, and new SKUs without name and type in the second and third chunks (rows 1502, 2501).
      proxy.arrivals.length = 0;
      const again = rows.map((_, i) => (i === 1500 || i === 2499 ? `PI-NEW-${i},,,` : `PI-${i},Renamed ${i},,`));
      const second = await importFile(again, proxy);
      expect(second.code).toBe(1);
      expect(second.summary).toMatchObject({ created: 0, updated: 2498, failed: 2 });
      expect(second.summary.failures).toEqual([
        expect.objectContaining({ row: 1502, sku: 'PI-NEW-1500' }),
        expect.objectContaining({ row: 2501, sku: 'PI-NEW-2499' }),
      ]);
      expect(second.stderr).toContain('2 of 2500 row(s) failed (the others were applied)');
      expect(await product('PI-1499')).toMatchObject({ name: 'Renamed 1499', weight: 1499 });
      expect(await product('PI-2498')).toMatchObject({ name: 'Renamed 2498' });
      expect(await t.db.prisma.product.count({ where: { sku: { startsWith: 'PI-NEW-' } } })).toBe(0);
    } finally {
      proxy.close();
    }
  });

  it('sends one request after the other, in file order, when a SKU is in two of them', async () => {
    const proxy = await bulkProxy({ holdFirstAnswer: false });
    try {
      // SQ-1 created in the first chunk, renamed in the third; sq-2 in the second chunk is SQ-2's case twin.
      const rows = Array.from({ length: 2500 }, (_, i) => `SQ-${i},Seq ${i},STANDARD,${i}`);
      rows[1200] = 'sq-2,Twin,STANDARD,1';
      rows[2200] = 'SQ-1,Seq 1 renamed,,';
      const r = await importFile(rows, proxy);
      expect(r.code).toBe(1);
      // Each request arrived after every earlier one was answered.
      expect(proxy.arrivals).toEqual([0, 1, 2]);
      expect(r.summary).toMatchObject({ created: 2498, updated: 1, failed: 1 });
      expect(r.summary.failures).toEqual([expect.objectContaining({ row: 1202, sku: 'sq-2' })]);
      expect(r.summary.failures[0].detail).toMatch(/already used by product .* as "SQ-2"/);
      expect(await product('SQ-1')).toMatchObject({ name: 'Seq 1 renamed', weight: 1 });
    } finally {
      proxy.close();
    }
  });
});
