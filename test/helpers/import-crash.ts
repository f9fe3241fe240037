import http from 'node:http';
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { ledgerBalanced } from '../api/inventory.fixtures.js';
import { runFos, spawnServe, type ServeProcess, type useServeSandbox } from './serve-process.js';

// Issue 23 item 3: `fos serve` killed (SIGKILL) in the middle of `fos inventory import`, then the
// import run again: every level equals what the file says, exactly once. The kill is placed
// deterministically by a proxy between the CLI and the server: it lets the second chunk reach
// the server and commit, then kills the server before the answer reaches the CLI (the worst
// case: applied, but the CLI cannot know), and refuses every connection after that. Used by
// test/e2e/import-crash.test.ts (SQLite) and test/pg/import-crash.pg.test.ts (PostgreSQL).

const ROWS = 2_500; // three chunks of up to 1,000

async function api(url: string, token: string, method: string, p: string, body?: unknown) {
  const res = await fetch(`${url}${p}`, {
    // url ends in /v1
    method,
    headers: { 'x-access-token': token, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Forwards to `upstream`; on the `killOn`-th adjustment, kills the server once it answered, and drops the answer. */
function crashingProxy(upstream: () => ServeProcess, killOn: number) {
  let adjustments = 0;
  let dead = false;
  const proxy = http.createServer(async (req, res) => {
    if (dead) return req.socket.destroy();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    // Applying adjustments only: the import checks every chunk first with dry runs, which change nothing.
    const isAdjustment =
      req.method === 'POST' && req.url === '/v1/ops/inventory/adjustments' && !Buffer.concat(chunks).toString().includes('"dry_run":true');
    const r = await fetch(`${new URL(upstream().url).origin}${req.url}`, {
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const text = await r.text();
    if (isAdjustment && ++adjustments === killOn) {
      expect(r.status).toBe(201); // committed on the server
      dead = true;
      upstream().child.kill('SIGKILL');
      await upstream().exited;
      proxy.close();
      proxy.closeAllConnections();
      return req.socket.destroy();
    }
    res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' }).end(text);
  });
  return new Promise<{ url: string }>((resolve) =>
    proxy.listen(0, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}/v1` });
    }),
  );
}

/** The scenario on `dbUrl` (a SQLite file path or a fresh PostgreSQL database's URL). */
export async function importSurvivesCrash(box: ReturnType<typeof useServeSandbox>, dbUrl: string) {
  const first = box.track(await spawnServe(['--db', dbUrl, '--port', '0', '--demo'], box.env, box.dir).started);
  const token = /API key \(shown once\): (\S+)/.exec(first.stderr())![1];
  const levels = await api(first.url, token, 'GET', '/ops/inventory');
  expect(levels.status, JSON.stringify(levels.body)).toBe(200);
  const warehouseId = levels.body.data[0].warehouse_id as string;
  const skus = Array.from({ length: ROWS }, (_, i) => `CRASH-${String(i).padStart(5, '0')}`);
  for (let i = 0; i < ROWS; i += 1000) {
    const bulk = await api(first.url, token, 'POST', '/ops/products/bulk', {
      products: skus.slice(i, i + 1000).map((sku) => ({ sku, name: sku, type: 'STANDARD' })),
    });
    expect(bulk.status, JSON.stringify(bulk.body).slice(0, 500)).toBe(200);
  }
  const delta = (i: number) => (i % 7) + 1;
  const csv = path.join(box.dir, 'deltas.csv');
  await writeFile(csv, `sku,delta\n${skus.map((s, i) => `${s},${delta(i)}`).join('\n')}\n`);

  const proxy = await crashingProxy(() => first, 2);
  const env = { ...box.env, FOS_BASE_URL: proxy.url, FOS_API_KEY: token };
  const crashed = await runFos(['inventory', 'import', csv, '--warehouse', warehouseId], { env, cwd: box.dir, timeoutMs: 120_000 });
  expect(crashed.code, crashed.stderr).toBe(7); // network
  expect(crashed.stderr).toContain('rows 2-1001 are known applied');
  expect(crashed.stderr).toContain('rows from 1002 on may or may not have been applied');
  expect(crashed.stderr).toMatch(/Running the same import again is safe/);

  const second = box.track(await spawnServe(['--db', dbUrl, '--port', '0'], box.env, box.dir).started);
  const rerun = await runFos(['inventory', 'import', csv, '--warehouse', warehouseId], {
    env: { ...env, FOS_BASE_URL: second.url },
    cwd: box.dir,
    timeoutMs: 120_000,
  });
  expect(rerun.code, rerun.stderr).toBe(0);
  expect(rerun.stderr).toContain(`imported ${ROWS} row(s) in 3 request(s)`);
  // The two chunks the first run applied (the second one's answer lost in the crash) are answered, not applied.
  expect(rerun.stderr).toContain('(2 request(s) already applied by an earlier run: answered from their first result, not applied again)');

  const db = await createDb(/^postgres/.test(dbUrl) ? dbUrl : `file:${dbUrl}`);
  try {
    const products = await db.prisma.product.findMany({ where: { sku: { in: skus } }, select: { id: true, sku: true } });
    expect(products).toHaveLength(ROWS);
    const balanced = await ledgerBalanced(
      db,
      products.map((p) => p.id),
    ); // every level equals its movements
    const onHand = new Map(balanced.map((l: { product_id: string; on_hand: number }) => [l.product_id, l.on_hand]));
    for (const p of products) expect(onHand.get(p.id), p.sku!).toBe(delta(skus.indexOf(p.sku!)));
  } finally {
    await db.close();
  }
  second.child.kill('SIGTERM');
  await second.exited;
}
