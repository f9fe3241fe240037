import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The standalone executable (`npm run build:sea`, docs/cli.md "Standalone executable") as someone
// without Node runs it: built once (~40 s of CPU, a ~150 MiB file in a temp directory), copied
// into an empty temporary directory and run from there with a PATH that holds no `node`, no
// node_modules in any folder above, and its own HOME (where it writes its cache). It must answer
// --version, serve the demo (SQLite through the libSQL addon it carries, migrations, Prisma's
// query compiler), list products through the profile `serve` saved, filter with --jq (jq's wasm)
// and fulfill an order with a bought PDF label.

const root = path.resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
let dir: string;
let binary: string;
let env: Record<string, string>;
let server: ChildProcess | undefined;

/** PATH without the folders that hold a `node` executable. */
const pathWithoutNode = () =>
  (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((d) => d && !existsSync(path.join(d, 'node')))
    .join(path.delimiter);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'fos-sea-'));
  const out = path.join(dir, 'build');
  // Asynchronously: a minute of a blocked worker would time out vitest's own messages.
  await promisify(execFile)(process.execPath, [path.join(root, 'scripts/build-sea.mjs')], { env: { ...process.env, FOS_SEA_OUT: out } });
  const run = path.join(dir, 'run');
  mkdirSync(run);
  binary = path.join(run, 'fos');
  copyFileSync(path.join(out, 'fos'), binary);
  rmSync(out, { recursive: true, force: true });
  chmodSync(binary, 0o755);
  env = {
    PATH: pathWithoutNode(),
    HOME: path.join(dir, 'home'),
    FOS_CONFIG_DIR: path.join(dir, 'config'),
    FOS_DATA_DIR: path.join(dir, 'data'),
    NO_COLOR: '1',
  };
}, 300_000);
afterAll(() => {
  server?.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function fos(args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(binary, args, { env, cwd: path.dirname(binary) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `fos serve --demo --port 0`: resolves with its address once it prints it. */
function serveDemo(): Promise<string> {
  const child = spawn(binary, ['serve', '--demo', '--port', '0'], { env, cwd: path.dirname(binary) });
  server = child;
  let out = '';
  return new Promise((resolve, reject) => {
    const seen = (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => reject(new Error(`fos serve exited ${code} before listening:\n${out}`)));
  });
}

describe('the standalone executable', () => {
  it('runs from an empty directory with no node on PATH and no node_modules above it', async () => {
    expect(env.PATH.split(path.delimiter).some((d) => existsSync(path.join(d, 'node')))).toBe(false);
    for (let d = path.dirname(binary); ; d = path.dirname(d)) {
      expect(existsSync(path.join(d, 'node_modules')), `${d}/node_modules`).toBe(false);
      if (path.dirname(d) === d) break;
    }
    const v = await fos(['--version']);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toBe(`${version}\n`);
    const help = await fos(['--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^ {2}serve\b/m);
  });

  it('serves the demo, lists products through it, filters with --jq and fulfills an order with a PDF label', async () => {
    const url = await serveDemo();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    // What it wrote to its cache: the server bundle, the migrations and libSQL's addon.
    const [cache] = readdirSync(path.join(env.HOME, '.cache/fos'));
    const extracted = path.join(env.HOME, '.cache/fos', cache);
    for (const f of ['server.cjs', 'prisma/migrations/sqlite/migration_lock.toml', 'node_modules/libsql/index.js'])
      expect(existsSync(path.join(extracted, f)), f).toBe(true);

    const products = await fos(['products', 'list', '--json', 'id,sku']);
    expect(products.code, products.stderr).toBe(0);
    const list = JSON.parse(products.stdout) as { id: string; sku: string }[];
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((p) => p.sku.startsWith('ACME-'))).toBe(true);

    const paid = await fos(['orders', 'list', '--jq', '[.[] | select(.payment_status == "PAID")][0].id']);
    expect(paid.code, paid.stderr).toBe(0);
    const orderId = paid.stdout.trim();
    expect(orderId).toMatch(/^[0-9a-f-]{36}$/);

    const labels = path.join(dir, 'labels');
    const run = await fos(['fulfill', 'run', orderId, '--rate-strategy', 'CHEAPEST', '--print-dir', labels]);
    expect(run.code, run.stderr).toBe(0);
    const [result] = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string; label_file: string });
    expect(result.status).toBe('fulfilled');
    expect(readFileSync(result.label_file).subarray(0, 5).toString()).toBe('%PDF-');

    const order = await fos(['orders', 'get', orderId, '--json', 'fulfillment_status']);
    expect(order.code, order.stderr).toBe(0);
    expect(JSON.parse(order.stdout)).toEqual({ fulfillment_status: 'FULFILLED' });
  }, 240_000);
});
