import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The standalone binary (npm run build:sea) is the esbuild bundle of the CLI run by Node's SEA.
// Whatever the bundle cannot see breaks only there: a module loaded through
// createRequire(import.meta.url) (import.meta is empty in the CommonJS bundle, and such requires
// are not bundled), or a dynamic import of a computed path. So the bundle is made and run with
// node: it must answer --version, list over HTTP (undici) and print a table (cli-table3).
// `npm run build:sea` itself (~3 s of CPU, a 100 MiB copy of node in a temp directory) makes the
// binary too, and the binary must say the truth: its --help lists no server command, and one
// asked for says why it is not there (issue 22 item 8).

const root = path.resolve(import.meta.dirname, '../..');
let out: string;
beforeAll(() => {
  out = mkdtempSync(path.join(tmpdir(), 'fos-sea-'));
  execFileSync(process.execPath, [path.join(root, 'scripts/build-sea.mjs')], { env: { ...process.env, FOS_SEA_OUT: out }, stdio: 'pipe' });
}, 180_000);
afterAll(() => out && rmSync(out, { recursive: true, force: true }));

describe('the standalone bundle', () => {
  it('answers --version, sends requests with undici and prints tables', async () => {
    const bundle = path.join(out, 'fos.cjs');
    const { version } = await import('../../package.json', { with: { type: 'json' } }).then((m) => m.default);
    expect(spawnSync(process.execPath, [bundle, '--version'], { encoding: 'utf8' }).stdout.trim()).toBe(version);

    const api = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: [{ id: 'p1', sku: 'MUG' }], meta: { page: 0, page_size: 20, total: 1 } }));
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    try {
      const env = {
        PATH: process.env.PATH,
        FOS_CONFIG_DIR: path.join(out, 'config'),
        FOS_API_KEY: 'fos_test',
        FOS_BASE_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`,
      };
      const run = (args: string[]) =>
        new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [bundle, ...args], { env });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (d: Buffer) => (stdout += d));
          child.stderr.on('data', (d: Buffer) => (stderr += d));
          child.on('close', (code: number | null) => resolve({ code, stdout, stderr }));
        });
      const json = await run(['products', 'list', '--json', 'id,sku']);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([{ id: 'p1', sku: 'MUG' }]);
      const table = await run(['products', 'list', '--format', 'table', '--json', 'id,sku']);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toMatch(/MUG/);
    } finally {
      api.close();
    }
  }, 60_000);

  it('the binary lists no command it cannot run, and says why when one is asked for', () => {
    const binary = path.join(out, 'fos');
    const env = { PATH: process.env.PATH, FOS_CONFIG_DIR: path.join(out, 'config') };
    const help = spawnSync(binary, ['--help'], { encoding: 'utf8', env });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/\n {2}products /);
    expect(help.stdout).not.toMatch(/^ {2}(serve|admin|db)\b/m);
    expect(help.stdout).not.toMatch(/fos serve\b/);
    for (const args of [
      ['serve', '--demo'],
      ['admin', 'team', 'list'],
      ['db', 'migrate'],
    ]) {
      const r = spawnSync(binary, args, { encoding: 'utf8', env });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^error: this standalone fos binary is the API client only; `fos serve`, `fos admin` and `fos db` need a checkout/,
      );
    }
  });
});
