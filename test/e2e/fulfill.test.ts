// End to end: the built CLI (`node bin/fos.js`, from dist/) in a pipeline,
// `… | fos fulfill run --from -`, against a listening in-process test server. dist/ is rebuilt
// with `npx tsc -p .` first when a CLI or client source is newer than it.

import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { tempConfigDir } from '../cli/helpers/cli.js';

const root = path.resolve(import.meta.dirname, '../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : e.name.endsWith('.ts') ? statSync(p).mtimeMs : 0);
  }
  return newest;
}

async function ensureBuilt() {
  const built = path.join(root, 'dist/cli/commands/fulfill/run.js');
  const sources = Math.max(newestMtime(path.join(root, 'src/cli')), newestMtime(path.join(root, 'src/client')));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  // tsc emits even when another area has a type error in progress; the CLI files are what matter here.
  await promisify(execFile)('npx', ['tsc', '-p', '.'], { cwd: root, timeout: 240_000 }).catch((err) => {
    if (!existsSync(built)) throw err;
  });
}

function fos(args: string[], stdin: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/fos.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

let t: TestApp;
let env: Record<string, string>;

beforeAll(async () => {
  await ensureBuilt();
  t = await testApp();
  const address = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  const key = await t.key({ tier: 4 });
  env = { FOS_BASE_URL: `${address}/v1`, FOS_API_KEY: key.token, FOS_CONFIG_DIR: await tempConfigDir(), NO_COLOR: '1' };
  const rate = await t.call('POST', '/v1/ops/carrier-rates', {
    body: { carrier_id: 'dhl', carrier_name: 'DHL', service_id: 'parcel', service_name: 'Parcel', amount: 3.2 },
  });
  expect(rate.statusCode).toBe(201);
}, 300_000);
afterAll(() => t?.close());

describe('fos fulfill run --from - (spawned)', () => {
  it('reads piped ids and writes one NDJSON result per id; exit code follows the failures', async () => {
    const a = await fulfillmentFixture(t, { lines: [{ quantity: 2 }], status: 'ACCEPTED' });
    const b = await fulfillmentFixture(t, { lines: [{ quantity: 1 }, { quantity: 3 }] }); // PENDING: accepted first
    const unknown = randomUUID();
    const stdin = `${JSON.stringify({ id: a.order.id })}\n${b.fo.id}\n${JSON.stringify({ order_id: unknown })}\n`;

    const r = await fos(['fulfill', 'run', '--from', '-', '--rate-strategy', 'CHEAPEST'], stdin, env);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    const byInput = Object.fromEntries(lines.map((l) => [l.input, l]));
    expect(byInput[a.order.id]).toMatchObject({ status: 'fulfilled', fulfillment_order_id: a.fo.id, order_id: a.order.id });
    expect(byInput[b.fo.id]).toMatchObject({ status: 'fulfilled', fulfillment_order_id: b.fo.id });
    expect(byInput[b.fo.id].tracking_code).toMatch(/^DHL\d{16}$/);
    expect(byInput[unknown]).toMatchObject({ status: 'failed', step: 'resolve', error: { kind: 'not-found' } });
    expect(r.stderr).toContain('accepting it first');
    expect(r.stderr).toContain('error: 1 of 3 failed');
    expect(r.stderr).not.toMatch(/\u001b\[/); // stderr is not a terminal: no progress bar
    expect(r.code).toBe(4);
    for (const f of [a, b]) {
      expect(await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } })).toMatchObject({
        status: 'FULFILLED',
        lock_owner: null,
      });
    }

    // Re-run without the unknown id: everything is skipped, nothing new is written, exit 0.
    const packages = await t.db.prisma.package.count();
    const again = await fos(['fulfill', 'run', '--from', '-', '--rate-strategy', 'CHEAPEST'], `${a.order.id}\n${b.fo.id}\n`, env);
    expect(again.code).toBe(0);
    expect(
      again.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).status),
    ).toEqual(['skipped', 'skipped']);
    expect(await t.db.prisma.package.count()).toBe(packages);
  }, 60_000);

  it('an empty batch is success: exit 0, "nothing to do" on stderr, nothing on stdout', async () => {
    const r = await fos(['fulfill', 'run', '--from', '-', '--rate-strategy', 'CHEAPEST'], '', env);
    expect(r.stderr).toContain('nothing to do');
    expect(r.stdout).toBe('');
    expect(r.code).toBe(0);
  }, 60_000);

  it('a re-run after a crash resumes: the default lock owner is stable for the machine and profile', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    // What a run that died after locking leaves behind: its lock (no profile here: env credentials).
    const lock = await t.call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, {
      body: { lock_owner: `fos-cli:${hostname()}:default`, timeout_minutes: 15 },
    });
    expect(lock.statusCode).toBe(200);
    const r = await fos(['fulfill', 'run', '--from', '-', '--rate-strategy', 'CHEAPEST'], `${f.fo.id}\n`, env);
    expect(r.stderr).toContain(`locked by fos-cli:${hostname()}:default`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ status: 'fulfilled', fulfillment_order_id: f.fo.id });
    expect(await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } })).toMatchObject({
      status: 'FULFILLED',
      lock_owner: null,
    });
  }, 60_000);
});
