import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/db/migrate.js';

// `fos serve` as a user runs it: the built CLI (bin/fos.js -> dist/, so `npm run build`
// first), a new SQLite file, a free port. First start prints the URL and an ADMIN token once
// and saves them as the `local` profile (mode 0600); a restart bootstraps nothing; SIGTERM
// stops it cleanly.

const root = packageRoot();
const bin = path.join(root, 'bin', 'fos.js');
let dir: string;
let env: NodeJS.ProcessEnv;

interface Server {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startServe(): Promise<Server> {
  const child = spawn(process.execPath, [bin, 'serve', '--db', path.join(dir, 'fos.db'), '--port', '0'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`fos serve did not announce its URL in 30 s.\nstderr:\n${err}\nstdout:\n${out}`));
    }, 30_000);
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1], stderr: () => err, stdout: () => out, exited });
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`fos serve exited (${code}) before listening.\nstderr:\n${err}\nstdout:\n${out}`));
    });
  });
}

async function stop(server: Server) {
  server.child.kill('SIGTERM');
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no exit 10 s after SIGTERM')), 10_000));
  return Promise.race([server.exited, timeout]);
}

const running: Server[] = [];
beforeAll(async () => {
  // The test runs the built code: refuse a dist/ older than the sources it exercises.
  for (const f of ['cli/main', 'server/cli', 'server/serve', 'server/serve-command', 'server/app', 'domain/bootstrap']) {
    const built = path.join(root, 'dist', `${f}.js`);
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(path.join(root, 'src', `${f}.ts`)).mtimeMs) {
      throw new Error(`dist/${f}.js is missing or older than src/${f}.ts: run \`npm run build\` first`);
    }
  }
  dir = await mkdtemp(path.join(tmpdir(), 'fos-e2e-'));
  env = {
    PATH: process.env.PATH,
    HOME: path.join(dir, 'home'),
    FOS_CONFIG_DIR: path.join(dir, 'config'),
    XDG_CONFIG_HOME: path.join(dir, 'home', '.config'),
    XDG_DATA_HOME: path.join(dir, 'home', '.local', 'share'),
    FOS_LOG_LEVEL: 'info',
    NO_COLOR: '1',
    CI: 'true',
  };
});
afterAll(async () => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('fos serve', () => {
  let token: string;

  it('first start: prints the URL and an ADMIN token once, saves the local profile, serves the API', async () => {
    const server = await startServe();
    running.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    // The token line precedes the "listening" line.
    const m = /API key \(shown once\): (fos_[0-9A-Za-z]{32}_[0-9A-Za-z]{6})/.exec(server.stderr());
    expect(m, server.stderr()).not.toBeNull();
    token = m![1];

    const swagger = await fetch(`${server.url}/swagger.json`);
    expect(swagger.status).toBe(200);
    expect(((await swagger.json()) as { openapi: string }).openapi).toMatch(/^3\.1\./);

    const me = await fetch(`${server.url}/me`, { headers: { 'x-access-token': token } });
    expect(me.status).toBe(200);
    expect(me.headers.get('x-ratelimit-limit')).toBe('3000'); // the first-start key has the highest tier
    expect(await me.json()).toMatchObject({ power_role: 'ADMIN', team_kind: 'FULFILLER', key_name: 'local admin' });
    const denied = await fetch(`${server.url}/me`);
    expect(denied.status).toBe(401);
    expect(denied.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    const file = path.join(env.FOS_CONFIG_DIR!, 'config.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const config = JSON.parse(await readFile(file, 'utf8'));
    expect(config.profiles.local).toMatchObject({ base_url: server.url, api_key: token });
    expect(config.current_profile).toBe('local');

    const exit = await stop(server);
    expect(exit).toEqual({ code: 0, signal: null });
    // The request log is JSON with trace ids, and never holds the token.
    const lines = server.stdout().split('\n').filter(Boolean);
    expect(lines.some((l) => /"trace_id":"[0-9a-f]{16}"/.test(l))).toBe(true);
    expect(server.stdout()).not.toContain(token);
  });

  it('restart on the same database: no second bootstrap, the first token still works; health, readiness and metrics (FOS_METRICS_TOKEN)', async () => {
    const before = await readFile(path.join(env.FOS_CONFIG_DIR!, 'config.json'), 'utf8');
    const metricsToken = 'e2e-metrics-token-0123456789';
    env.FOS_METRICS_TOKEN = metricsToken;
    const server = await startServe();
    running.push(server);
    expect(server.stderr()).not.toMatch(/API key|First start/);
    const origin = server.url.replace(/\/v1$/, '');
    expect(server.stderr()).toContain(
      `Health: ${origin}/healthz · readiness: ${origin}/readyz · metrics: ${origin}/metrics (Authorization: Bearer <metrics token>)\n`,
    );
    const me = await fetch(`${server.url}/me`, { headers: { 'x-access-token': token } });
    expect(me.status).toBe(200);
    expect(await (await fetch(`${origin}/healthz`)).json()).toEqual({ status: 'ok' });
    // fos serve started the outbox worker readiness checks.
    const ready = await fetch(`${origin}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([
      200,
      { status: 'ready', checks: { database: 'ok', migrations: 'ok', outbox: 'ok', disk: 'ok' } },
    ]);
    expect((await fetch(`${origin}/metrics`)).status).toBe(401);
    const metrics = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^fos_http_request_duration_seconds_count\{method="GET",route="\/v1\/me",status="200"\} 1$/m);
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    const keys = await fetch(`${server.url}/keys`, { headers: { 'x-access-token': token } });
    expect(((await keys.json()) as { data: unknown[] }).data).toHaveLength(1);
    expect(await readFile(path.join(env.FOS_CONFIG_DIR!, 'config.json'), 'utf8')).toBe(before);
    expect(await stop(server)).toEqual({ code: 0, signal: null });
    // Probes and scrapes are not logged line by line (info is off for them); API requests are.
    expect(server.stdout()).toContain('"url":"/v1/me"');
    expect(server.stdout()).not.toMatch(/"url":"\/(healthz|readyz|metrics)"/);
  });
});
