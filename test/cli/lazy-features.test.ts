// Every feature whose code bin/fos.js loads only when it is used (--jq, --template, the pager, the
// login prompt, interactive `keys create`, a destructive confirmation) works on the second run
// too, when dist/cli.cjs runs from its V8 code cache (bin/compile-cache.cjs), with no warning:
// issue 22 item 1, where the second run of each failed on Node 20 ("A dynamic import callback was
// not specified") and Node 24 warned about vm.USE_MAIN_CONTEXT_DEFAULT_LOADER. Spawned with
// process.execPath, so CI's second pass on Node 24 runs them on Node 24; prompts are answered on a
// pseudo-terminal (helpers/pty.ts), against the real server over HTTP.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliServer } from './helpers/server.js';
import { ptySpawn } from './helpers/pty.js';
import type { TestApp } from '../helpers/app.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/fos.js');
const cacheDir = path.join(root, 'dist/cli.cjs.cache');
const configDir = mkdtempSync(path.join(tmpdir(), 'fos-lazy-'));

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist/cli.cjs'))) throw new Error('dist/cli.cjs is missing: npm run build');
  const s = await cliServer();
  t = s.t;
  env = { PATH: process.env.PATH ?? '', HOME: configDir, FOS_CONFIG_DIR: configDir, ...s.env };
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(configDir, { recursive: true, force: true });
});

/** This node's code cache of the bundle, there once a run has written it. */
const cached = () => existsSync(cacheDir) && readdirSync(cacheDir).some((f) => f.endsWith(`-${process.version}.v8`));

/** bin/fos.js with pipes (as scripts run it); asynchronous, as the server answering it runs in this process. */
function fos(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Runs `feature` twice; the second run starts with the bundle's code cache in place. */
async function twice(feature: (run: number) => Promise<void>) {
  await feature(1);
  expect(cached(), 'the first run wrote the code cache').toBe(true);
  await feature(2);
}

const noWarning = (text: string) => {
  expect(text).not.toMatch(/Warning|dynamic import callback/);
};

describe('lazily loaded features, run twice through bin/fos.js', () => {
  it('--jq', async () => {
    await twice(async () => {
      const r = await fos(['keys', 'list', '--jq', '.[].power_role']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^ADMIN$/m);
    });
  });

  it('--template', async () => {
    await twice(async () => {
      const r = await fos(['keys', 'list', '--template', '{{#.}}<{{power_role}}>{{/.}}']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('<ADMIN>');
    });
  });

  it('the pager, for a record longer than the terminal', async () => {
    const { id } = await t.key({ powerRole: 'ADMIN' });
    await twice(async () => {
      const p = ptySpawn([process.execPath, bin, 'keys', 'get', id], { env: { ...env, FOS_PAGER: 'sed s/^/paged:/' }, rows: 4 });
      const { code, output } = await p.done;
      expect(code, output).toBe(0);
      expect(output).toMatch(new RegExp(`paged:.*${id}`));
      noWarning(output);
    });
  });

  it('fos login asks for the API key', async () => {
    const { token } = await t.key({ powerRole: 'ADMIN' });
    const loginEnv = { ...env, FOS_API_KEY: undefined };
    await twice(async (run) => {
      const p = ptySpawn([process.execPath, bin, 'login', '--profile', `p${run}`, '--base-url', env.FOS_BASE_URL], { env: loginEnv });
      await p.waitFor('API key:');
      p.type(`${token}\r`);
      const { code, output } = await p.done;
      expect(code, output).toBe(0);
      expect(output).toContain(`saved profile "p${run}"`);
      noWarning(output);
    });
  });

  it('interactive fos keys create asks for what the flags leave out', async () => {
    await t.key({ permissions: ['READ_PRODUCTS'] }); // a custom role to pick
    await twice(async (run) => {
      const p = ptySpawn([process.execPath, bin, 'keys', 'create', '--json', 'name,token'], { env });
      await p.waitFor('Key name:');
      p.type(`station ${run}\r`);
      await p.waitFor('Power role:');
      p.type('\r'); // MEMBER, the default
      await p.waitFor('Roles');
      p.type(' \r'); // the first role
      const { code, output } = await p.done;
      expect(code, output).toBe(0);
      expect(output).toMatch(new RegExp(`"name": "station ${run}"[\\s\\S]*"token": "fos_`));
      noWarning(output);
    });
  });

  it('a destructive command asks for confirmation', async () => {
    await twice(async () => {
      const { id } = await t.key({ powerRole: 'ADMIN' });
      const p = ptySpawn([process.execPath, bin, 'keys', 'disable', id], { env });
      await p.waitFor('Disable key');
      p.type('y\r');
      const { code, output } = await p.done;
      expect(code, output).toBe(0);
      expect(output).toMatch(new RegExp(`id.*${id}[\\s\\S]*state.*DISABLED`));
      noWarning(output);
    });
  });
});
