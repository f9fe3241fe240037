// Profiles are never clobbered (issue 8 item 2): what `fos serve` saves for its operator, and
// `fos logout`, `fos profile delete`, `fos auth status` through the real command tree; two real
// `fos serve` processes on different databases leave two profiles, the first key intact.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/cli/config.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { serveSandbox, spawnServe } from '../helpers/serve-process.js';
import { runCli, tempConfigDir } from './helpers/cli.js';

let t: TestApp;
let baseUrl = '';
beforeAll(async () => {
  t = await testApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
});
afterAll(() => t?.close());

const KEY_A = 'fos_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA_aaaaaa';
const KEY_B = 'fos_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB_bbbbbb';

describe('the profile fos serve saves', () => {
  it('local first; another server gets local-<port> and the current profile stays; the same server is updated in place', async () => {
    const store = new ConfigStore({ FOS_CONFIG_DIR: await tempConfigDir() });
    expect(store.saveServerProfile('http://127.0.0.1:7070/v1', KEY_A)).toEqual({ name: 'local', current: true, replaced: false });
    expect(store.saveServerProfile('http://127.0.0.1:8080/v1', KEY_B)).toEqual({ name: 'local-8080', current: false, replaced: false });
    expect(store.profiles().local).toEqual({ base_url: 'http://127.0.0.1:7070/v1', api_key: KEY_A });
    expect(store.currentProfileName()).toBe('local');
    // the same address again (its database was replaced): the key is updated, said so
    expect(store.saveServerProfile('http://127.0.0.1:8080/v1', KEY_A)).toEqual({ name: 'local-8080', current: false, replaced: true });
    // local-8080 taken by another URL (edited by hand): the next free name
    store.setProfileField('local-9090', 'base_url', 'http://10.0.0.1:9090/v1');
    expect(store.saveServerProfile('http://127.0.0.1:9090/v1', KEY_B).name).toBe('local-9090-2');
  });

  it('two real fos serve processes on different databases leave two profiles, the first key intact', async () => {
    const { dir, env } = await serveSandbox();
    const first = spawnServe(['--db', path.join(dir, 'a.db'), '--port', '0'], env, dir);
    const a = await first.started;
    const second = spawnServe(['--db', path.join(dir, 'b.db'), '--port', '0'], env, dir);
    const b = await second.started;
    try {
      const tokenA = /API key \(shown once\): (\S+)/.exec(a.stderr())![1];
      const tokenB = /API key \(shown once\): (\S+)/.exec(b.stderr())![1];
      const config = JSON.parse(readFileSync(path.join(env.FOS_CONFIG_DIR!, 'config.json'), 'utf8'));
      const portB = new URL(b.url).port;
      expect(config.profiles.local).toEqual({ base_url: a.url, api_key: tokenA });
      expect(config.profiles[`local-${portB}`]).toEqual({ base_url: b.url, api_key: tokenB });
      expect(config.current_profile).toBe('local');
      expect(b.stderr()).toContain(`CLI profile "local-${portB}" for ${b.url} (the current profile stays as it is`);
    } finally {
      for (const s of [a, b]) s.child.kill('SIGTERM');
      await Promise.all([a.exited, b.exited]);
    }
  }, 90_000);
});

describe('logout, profile delete, auth status', () => {
  it('auth status shows the URL, profile, key, team, permissions and what is left of the rate limit', async () => {
    const dir = await tempConfigDir();
    const key = await t.key({ powerRole: 'ADMIN', tier: 2 });
    new ConfigStore({ FOS_CONFIG_DIR: dir }).saveProfile('wh', { base_url: baseUrl, api_key: key.token }, { makeCurrent: true });
    const r = await runCli(['auth', 'status', '--json'], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({
      base_url: baseUrl,
      profile: 'wh',
      key_source: 'profile',
      power_role: 'ADMIN',
      rate_tier: 2,
      rate_limit: 120,
    });
    expect(s.api_key).not.toBe(key.token);
    expect(s.permissions.length).toBeGreaterThan(5);
    expect(s.rate_remaining).toBeLessThan(120);
  });

  it('logout forgets the key (the URL stays); profile delete asks, needs --yes in scripts, and unsets current', async () => {
    const dir = await tempConfigDir();
    const store = new ConfigStore({ FOS_CONFIG_DIR: dir });
    store.saveProfile('a', { base_url: 'http://127.0.0.1:7070/v1', api_key: KEY_A }, { makeCurrent: true });
    store.saveProfile('b', { base_url: 'http://127.0.0.1:8080/v1', api_key: KEY_B });
    const out = await runCli(['logout'], { configDir: dir });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('logged out of profile "a"');
    expect(new ConfigStore({ FOS_CONFIG_DIR: dir }).profiles().a).toEqual({ base_url: 'http://127.0.0.1:7070/v1', api_key: '' });
    expect((await runCli(['products', 'list'], { configDir: dir })).code).toBe(3); // not logged in

    const script = await runCli(['profile', 'delete', 'a'], { configDir: dir });
    expect(script.code).toBe(2);
    expect(script.stderr).toContain('pass --yes');
    const asked: string[] = [];
    const no = await runCli(['profile', 'delete', 'b'], {
      configDir: dir,
      tty: true,
      prompts: { confirm: async (o) => (asked.push(o.message), false) },
    });
    expect(no.code).toBe(1);
    expect(asked).toEqual(['Delete profile "b" (http://127.0.0.1:8080/v1) and its saved key?']);
    const yes = await runCli(['profile', 'delete', 'a', '--yes'], { configDir: dir });
    expect(yes.code).toBe(0);
    const after = new ConfigStore({ FOS_CONFIG_DIR: dir });
    expect(Object.keys(after.profiles())).toEqual(['b']);
    expect(after.currentProfileName()).toBeUndefined();
    const unknown = await runCli(['profile', 'delete', 'zzz', '--yes'], { configDir: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('profile "zzz" not found (known: b)');
  });
});
