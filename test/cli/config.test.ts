import { chmodSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactToken } from '../../src/client/redact.js';
import { ConfigStore, saveProfile } from '../../src/cli/config.js';
import { normalizeBaseUrl } from '../../src/cli/profile.js';
import { runCli, tempConfigDir } from './helpers/cli.js';

const KEY_A = 'fos_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA_aaaaaa';
const KEY_B = 'fos_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB_bbbbbb';

async function storeWithTwoProfiles(env: Record<string, string | undefined> = {}) {
  const dir = await tempConfigDir();
  const store = new ConfigStore({ FOS_CONFIG_DIR: dir, ...env });
  store.saveProfile('a', { base_url: 'http://a.example:7070', api_key: KEY_A });
  store.saveProfile('b', { base_url: 'https://b.example/v1/', api_key: KEY_B });
  return { dir, store };
}

describe('base URL normalisation', () => {
  it('appends /v1 when missing and strips trailing slashes', () => {
    expect(normalizeBaseUrl('http://127.0.0.1:7070')).toBe('http://127.0.0.1:7070/v1');
    expect(normalizeBaseUrl('http://127.0.0.1:7070/')).toBe('http://127.0.0.1:7070/v1');
    expect(normalizeBaseUrl('localhost:7070')).toBe('http://localhost:7070/v1');
    expect(normalizeBaseUrl('192.168.1.20:7070/v1')).toBe('http://192.168.1.20:7070/v1');
    expect(normalizeBaseUrl('fos.example.com')).toBe('https://fos.example.com/v1');
    expect(normalizeBaseUrl('https://x.example/v1/')).toBe('https://x.example/v1');
    expect(normalizeBaseUrl(' https://x.example/api/v1 ')).toBe('https://x.example/api/v1');
    expect(normalizeBaseUrl('https://x.example/api')).toBe('https://x.example/api/v1');
  });

  it('rejects non-http URLs and junk with a usage error', () => {
    expect(() => normalizeBaseUrl('ftp://x')).toThrow(/only http and https/);
    expect(() => normalizeBaseUrl('not a url')).toThrow(/invalid base URL/);
  });
});

describe('profile resolution order', () => {
  it('uses the current profile by default (the first saved one)', async () => {
    const { store } = await storeWithTwoProfiles();
    expect(store.resolve()).toMatchObject({ name: 'a', base_url: 'http://a.example:7070/v1', api_key: KEY_A });
  });

  it('--profile flag beats FOS_PROFILE, which beats the current profile', async () => {
    const { dir } = await storeWithTwoProfiles();
    const envStore = new ConfigStore({ FOS_CONFIG_DIR: dir, FOS_PROFILE: 'b' });
    expect(envStore.resolve().name).toBe('b');
    expect(envStore.resolve({ profile: 'a' }).name).toBe('a');
  });

  it('FOS_BASE_URL and FOS_API_KEY override fields; --base-url beats FOS_BASE_URL', async () => {
    const { dir } = await storeWithTwoProfiles();
    const store = new ConfigStore({ FOS_CONFIG_DIR: dir, FOS_BASE_URL: 'http://env.example', FOS_API_KEY: 'fos_env' });
    expect(store.resolve()).toMatchObject({
      name: 'a',
      base_url: 'http://env.example/v1',
      api_key: 'fos_env',
      source: { base_url: 'env', api_key: 'env' },
    });
    expect(store.resolve({ baseUrl: 'http://flag.example/v1' })).toMatchObject({
      base_url: 'http://flag.example/v1',
      source: { base_url: 'flag' },
    });
  });

  it('works from the environment alone, and reports how to log in otherwise (auth error)', async () => {
    const dir = await tempConfigDir();
    expect(new ConfigStore({ FOS_CONFIG_DIR: dir, FOS_BASE_URL: 'http://e', FOS_API_KEY: 'k' }).resolve()).toMatchObject({
      name: undefined,
      base_url: 'http://e/v1',
    });
    expect(() => new ConfigStore({ FOS_CONFIG_DIR: dir }).resolve()).toThrow(/not logged in.*fos login/);
  });

  it('an unknown profile named by flag or env is a usage error listing the known ones', async () => {
    const { store, dir } = await storeWithTwoProfiles();
    expect(() => store.resolve({ profile: 'nope' })).toThrow(/profile "nope" not found \(known: a, b\)/);
    expect(() => new ConfigStore({ FOS_CONFIG_DIR: dir, FOS_PROFILE: 'zz' }).resolve()).toThrow(/"zz" not found/);
  });

  it('the resolution reaches the HTTP request through the context', async () => {
    const { dir } = await storeWithTwoProfiles();
    const r = await runCli(['--profile', 'b', 'api', 'GET', '/me'], {
      configDir: dir,
      env: { FOS_BASE_URL: 'http://127.0.0.1:9' },
    });
    // Nothing listens on port 9: the error names the env URL, proving env beat profile b's URL.
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      /^error: cannot reach http:\/\/127\.0\.0\.1:9 \(\$FOS_BASE_URL, ECONNREFUSED\): connection refused: fos serve does not seem to be running on port 9/m,
    );
  });

  it('an unreachable server names the profile and URL used, and whether fos serve seems to run', async () => {
    const { dir } = await storeWithTwoProfiles();
    expect((await runCli(['config', 'set', '--profile', 'dead', 'base_url', 'http://127.0.0.1:9/v1'], { configDir: dir })).code).toBe(0);
    expect(
      (await runCli(['config', 'set', '--profile', 'dead', 'api_key', 'fos_DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD_dddddd'], { configDir: dir }))
        .code,
    ).toBe(0);
    const r = await runCli(['--profile', 'dead', 'products', 'list'], { configDir: dir });
    expect(r.code).toBe(7);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([
      'error: cannot reach http://127.0.0.1:9 (profile "dead", ECONNREFUSED): connection refused: fos serve does not seem to be running on port 9 (start it with `fos serve` or `npm start`, or pick another profile: fos profile list)',
    ]);
    const flag = await runCli(['--base-url', 'http://no-such-host.invalid', 'products', 'list'], { configDir: dir });
    expect(flag.code).toBe(7);
    expect(flag.stderr).toMatch(
      /^error: cannot reach http:\/\/no-such-host\.invalid \(--base-url, (ENOTFOUND|EAI_AGAIN)\): the host name no-such-host\.invalid does not resolve$/m,
    );
  });
});

describe('config file', () => {
  it('is written with mode 0600 under FOS_CONFIG_DIR', async () => {
    const { store, dir } = await storeWithTwoProfiles();
    expect(store.path).toBe(path.join(dir, 'config.json'));
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });

  it('tightens a pre-existing world-readable file on the next write', async () => {
    const dir = await tempConfigDir();
    const file = path.join(dir, 'config.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o644);
    saveProfile('local', { base_url: 'http://127.0.0.1:7070', api_key: KEY_A }, { makeCurrent: true }, { FOS_CONFIG_DIR: dir });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(new ConfigStore({ FOS_CONFIG_DIR: dir }).data()).toEqual({
      current_profile: 'local',
      profiles: { local: { base_url: 'http://127.0.0.1:7070/v1', api_key: KEY_A } },
    });
  });

  it('saveProfile(makeCurrent) switches the current profile; without it the current stays', async () => {
    const { dir, store } = await storeWithTwoProfiles();
    expect(store.currentProfileName()).toBe('a');
    saveProfile('local', { base_url: 'http://l', api_key: KEY_B }, {}, { FOS_CONFIG_DIR: dir });
    expect(new ConfigStore({ FOS_CONFIG_DIR: dir }).currentProfileName()).toBe('a');
    saveProfile('local', { base_url: 'http://l', api_key: KEY_B }, { makeCurrent: true }, { FOS_CONFIG_DIR: dir });
    expect(new ConfigStore({ FOS_CONFIG_DIR: dir }).currentProfileName()).toBe('local');
  });

  it('rejects odd profile names', async () => {
    const { store } = await storeWithTwoProfiles();
    expect(() => store.saveProfile('../x', { base_url: 'http://x', api_key: 'k' })).toThrow(/invalid profile name/);
  });
});

describe('tokens are never printed back', () => {
  it('redacts to prefix…last4', () => {
    expect(redactToken(KEY_A)).toBe('fos_…aaaa');
    expect(redactToken('short')).toBe('…');
    expect(redactToken('')).toBe('');
  });

  it('profile list, config get and --verbose show only the redacted key', async () => {
    const { dir } = await storeWithTwoProfiles();
    const list = await runCli(['profile', 'list'], { configDir: dir });
    expect(JSON.parse(list.stdout)).toEqual([
      { name: 'a', current: true, base_url: 'http://a.example:7070/v1', api_key: 'fos_…aaaa' },
      { name: 'b', current: false, base_url: 'https://b.example/v1', api_key: 'fos_…bbbb' },
    ]);
    const all = await runCli(['config', 'get'], { configDir: dir });
    const get = await runCli(['config', 'get', 'api_key', '--profile', 'b'], { configDir: dir });
    expect(get.stdout).toBe('fos_…bbbb\n');
    const verbose = await runCli(['--verbose', 'api', 'GET', '/me'], { configDir: dir, env: { FOS_BASE_URL: 'http://127.0.0.1:9' } });
    expect(verbose.stderr).toContain('> x-access-token: fos_…aaaa');
    for (const out of [list, all, get, verbose]) {
      expect(out.stdout + out.stderr).not.toContain(KEY_A);
      expect(out.stdout + out.stderr).not.toContain(KEY_B);
    }
  });
});

describe('profile use / config set', () => {
  it('switches the current profile and refuses unknown ones', async () => {
    const { dir } = await storeWithTwoProfiles();
    expect((await runCli(['profile', 'use', 'b'], { configDir: dir })).code).toBe(0);
    expect(new ConfigStore({ FOS_CONFIG_DIR: dir }).currentProfileName()).toBe('b');
    const bad = await runCli(['profile', 'use', 'zz'], { configDir: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: profile "zz" not found/);
  });

  it('sets default_format (validated) and base_url of the selected profile (normalised)', async () => {
    const { dir } = await storeWithTwoProfiles();
    expect((await runCli(['config', 'set', 'default_format', 'csv'], { configDir: dir })).code).toBe(0);
    expect((await runCli(['config', 'set', 'base_url', 'http://new.example', '--profile', 'b'], { configDir: dir })).code).toBe(0);
    const store = new ConfigStore({ FOS_CONFIG_DIR: dir });
    expect(store.defaultFormat()).toBe('csv');
    expect(store.profiles().b.base_url).toBe('http://new.example/v1');
    const bad = await runCli(['config', 'set', 'default_format', 'yaml'], { configDir: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('allowed values are table, json, ndjson, csv');
    const badKey = await runCli(['config', 'set', 'colour', 'x'], { configDir: dir });
    expect(badKey.code).toBe(2);
  });
});
