import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from '../api/orders.fixtures.js';
import { runCli } from './helpers/cli.js';

// `fos <list> export` and `--all` through exports (issue 29 item 4): the server's NDJSON and CSV
// byte for byte, the list's filters, the spawned binary twice in a row, and an export cut off
// mid-stream that says how many records arrived and how to resume.

let w: World;
let env: Record<string, string>;
let cut: Server;
const root = path.resolve(import.meta.dirname, '../..');

beforeAll(async () => {
  w = await world();
  await w.product('MUG', { [w.east]: 100 });
  for (let i = 0; i < 4; i++) await w.order({ line_items: [line('MUG', 1)], merchant_team_id: w.merchantId });
  const base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  env = { FOS_BASE_URL: `${base}/v1`, FOS_API_KEY: w.token };
  // A server that sends two records of an export, then drops the connection.
  cut = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write('{"id":"01a21063-0000-7000-8000-000000000001"}\n{"id":"01a21063-0000-7000-8000-000000000002"}\n{"id":"01a2');
    setImmediate(() => res.socket?.destroy());
  });
  await new Promise<void>((r) => cut.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  cut?.close();
  await w?.t.close();
});

const fos = (...args: string[]) => runCli(args, { env });

describe('fos … export', () => {
  it("writes the server's NDJSON, the same records as the list, and its CSV with --format csv", async () => {
    const r = await fos('orders', 'export');
    expect(r.code, r.stderr).toBe(0);
    const records = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const listed = JSON.parse((await fos('orders', 'list', '--format', 'json')).stdout);
    expect(records).toEqual(listed);
    expect(records).toHaveLength(4);
    const csv = await fos('orders', 'export', '--format', 'csv', '--status', 'OPEN,PENDING_FULFILLMENT');
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split('\n')[0]).toMatch(/^id,created_at,/);
    expect(csv.stdout.trimEnd().split('\n')).toHaveLength(5);
    const resumed = await fos('orders', 'export', '--after', records[1].id);
    expect(
      resumed.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(records.slice(2));
  });

  it("--all streams from the export in the list's default order, and pages when sorted otherwise", async () => {
    const all = await fos('orders', 'list', '--all', '--format', 'ndjson');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toBe((await fos('orders', 'export')).stdout);
    const sorted = await fos('orders', 'list', '--all', '--format', 'ndjson', '--order', 'asc');
    expect(sorted.stdout.trimEnd().split('\n').reverse().join('\n')).toBe(all.stdout.trimEnd());
  });

  it('an export cut off says how many records arrived and how to resume (exit 7)', async () => {
    const url = `http://127.0.0.1:${(cut.address() as AddressInfo).port}/v1`;
    const r = await runCli(['orders', 'export'], { env: { FOS_BASE_URL: url, FOS_API_KEY: w.token } });
    expect(r.code).toBe(7);
    expect(r.stdout.split('\n').filter(Boolean).slice(0, 2)).toHaveLength(2);
    expect(r.stderr).toContain('The first 2 records were written; resume with --after 01a21063-0000-7000-8000-000000000002');
  });

  it('runs from the spawned binary, twice in a row', async () => {
    for (let i = 0; i < 2; i++) {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [path.join(root, 'bin/fos.js'), 'orders', 'export', '--format', 'csv'],
        {
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
          timeout: 60_000,
        },
      );
      expect(stdout.trimEnd().split('\n')).toHaveLength(5);
    }
  });
});
