import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFos, spawnServe, useServeSandbox, type ServeProcess } from '../helpers/serve-process.js';

// Issue 35 items 2 and 3, as a user runs them (`npm start` is `fos serve --demo`): the demo lives
// in <data dir>/demo.db, made anew at every start, and never in the user's own database; its key
// goes to the profile `demo` (not `local`) and leaves with the server; the banner names /floor
// and a floor sign-in that works; `fos draft-orders create` calls the spec's path.

const box = useServeSandbox();
const env = () => ({ ...box.env, FOS_DATA_DIR: path.join(box.dir, 'data'), FOS_LOG_LEVEL: 'info', FOS_LOG_FORMAT: 'json' });
const config = async () => JSON.parse(await readFile(path.join(box.env.FOS_CONFIG_DIR!, 'config.json'), 'utf8'));

async function start(args: string[]): Promise<ServeProcess> {
  return box.track(await spawnServe([...args, '--port', '0'], env(), box.dir).started);
}

async function stop(s: ServeProcess) {
  s.child.kill('SIGTERM');
  expect((await s.exited).code).toBe(0);
}

const get = async (url: string, token: string) => {
  const res = await fetch(url, { headers: { 'x-access-token': token } });
  expect(res.status, url).toBe(200);
  return (await res.json()) as any;
};
const tokenOf = (s: ServeProcess) => /API key \(shown once\): (\S+)/.exec(s.stderr())![1];

describe('fos serve --demo', () => {
  it('serves the demo from demo.db with a floor sign-in, a demo profile that leaves with it, and the spec draft path', async () => {
    const demo = await start(['--demo']);
    const origin = demo.url.replace(/\/v1$/, '');
    const err = demo.stderr();
    expect(err).toContain(`floor page for scanners and phones: ${origin}/floor`);
    expect(err).toContain(path.join(box.dir, 'data', 'demo.db'));
    expect(existsSync(path.join(box.dir, 'data', 'demo.db'))).toBe(true);
    expect(existsSync(path.join(box.dir, 'data', 'fos.db'))).toBe(false);
    const token = tokenOf(demo);
    expect((await get(`${demo.url}/ops/products?limit=100`, token)).data).toHaveLength(8);

    // The printed floor sign-in works on /floor's session endpoint, and its token reads the API.
    const m = /Floor sign-in \(shown once\): (\S+)\/floor {2}email (\S+) {2}password (\S+)/.exec(err);
    expect(m, err).not.toBeNull();
    expect(m![1]).toBe(origin);
    const signIn = await fetch(`${origin}/floor/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: m![2], password: m![3] }),
    });
    expect(signIn.status).toBe(201);
    const session = (await signIn.json()) as any;
    expect(session.team.name).toBe('My Warehouse');
    expect((await get(`${demo.url}/ops/fulfillment-orders?limit=50`, session.access_token)).data.length).toBeGreaterThanOrEqual(5);

    // The key is the profile "demo" (current: none was), never "local".
    let cfg = await config();
    expect(Object.keys(cfg.profiles)).toEqual(['demo']);
    expect(cfg.profiles.demo).toEqual({ base_url: demo.url, api_key: token });
    expect(cfg.current_profile).toBe('demo');

    // `fos draft-orders create` (the profile's server; the one merchant needs no --merchant) calls {base_url}/api/orders/draft-orders/create-draft-order.
    const address = { name: 'Ada', address1: '1 Main St', city: 'Leeds', country: 'GB' };
    const created = await runFos(
      ['draft-orders', 'create', '--line-item', 'sku=ACME-STOVE,quantity=2,price=54', '--data', '-', '--json', 'id,status'],
      { env: env(), cwd: box.dir, input: JSON.stringify({ shipping_address: address }) },
    );
    expect(created.code, created.stderr).toBe(0);
    const draft = JSON.parse(created.stdout);
    expect(draft.status).toBe('OPEN');
    expect((await get(`${demo.url}/ops/draft-orders/${draft.id}`, token)).line_items[0]).toMatchObject({ sku: 'ACME-STOVE', quantity: 2 });
    const posts = demo
      .stdout()
      .split('\n')
      .filter((l) => l.includes('"method":"POST"'))
      .map((l) => JSON.parse(l).req.url);
    expect(posts).toContain('/v1/api/orders/draft-orders/create-draft-order');
    expect(posts).not.toContain('/v1/ops/draft-orders');

    await stop(demo);
    cfg = await config();
    expect(cfg.profiles).toEqual({}); // each --port 0 demo leaves no profile behind
    expect(cfg.current_profile).toBeUndefined();
  }, 120_000);

  it("a plain fos serve afterwards serves the user's own empty database; the next demo starts over", async () => {
    const own = await start([]);
    const token = tokenOf(own);
    expect((await get(`${own.url}/ops/products?limit=100`, token)).data).toEqual([]);
    expect((await get(`${own.url}/ops/orders/list?limit=100`, token)).data).toEqual([]);
    expect((await config()).profiles.local).toEqual({ base_url: own.url, api_key: token });
    await stop(own);
    expect(existsSync(path.join(box.dir, 'data', 'fos.db'))).toBe(true);

    // A demo again: the local profile stays current and untouched, the demo database is new.
    const demo = await start(['--demo']);
    const demoToken = tokenOf(demo);
    expect((await get(`${demo.url}/ops/products?limit=100`, demoToken)).data).toHaveLength(8);
    expect((await get(`${demo.url}/ops/draft-orders?limit=100`, demoToken)).data).toHaveLength(5); // not the 6 of the first run
    let cfg = await config();
    expect(cfg.current_profile).toBe('local');
    expect(cfg.profiles.local).toEqual({ base_url: own.url, api_key: token });
    expect(cfg.profiles.demo.api_key).toBe(demoToken);
    expect(demo.stderr()).toContain('fos --profile demo products list');
    await stop(demo);
    cfg = await config();
    expect(Object.keys(cfg.profiles)).toEqual(['local']);

    // --reset starts the user's database over, keeping the old file beside it.
    const again = await start(['--reset']);
    const m = /--reset: the old database is kept as (\S+);/.exec(again.stderr());
    expect(m, again.stderr()).not.toBeNull();
    expect(existsSync(m![1])).toBe(true);
    expect(again.stderr()).toMatch(/First start/);
    await stop(again);
  }, 120_000);
});
