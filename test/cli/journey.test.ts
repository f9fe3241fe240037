// A first-time user's session, against the REAL server (testApp + listen): what a warehouse
// lead sees on a terminal. Each case is a rough edge found by hand and fixed.
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/context.js';
import { testIOStreams } from '../../src/cli/iostreams.js';
import { run } from '../../src/cli/main.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { convertedOrder, SHIP_TO } from '../helpers/fixtures.js';
import { runCli, tempConfigDir, type RunCliOptions } from './helpers/cli.js';

let t: TestApp;
let baseUrl = '';
let admin: Record<string, string>;
let merchantTeamId = '';

beforeAll(async () => {
  t = await testApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  const key = await t.key({ powerRole: 'ADMIN', tier: 4 });
  admin = { FOS_BASE_URL: baseUrl, FOS_API_KEY: key.token };
  ({ merchantTeamId } = await convertedOrder(t, t.adminToken, [{ sku: 'JOURNEY-A-RATHER-LONG-SKU', quantity: 2, onHand: 9 }]));
});
afterAll(() => t?.close());

const fos = (args: string[], opts: RunCliOptions = {}) => runCli(args, { env: admin, ...opts });
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A converted order whose payment is PENDING, so it carries the AWAITING_PAYMENT hold. */
async function unpaidOrder(): Promise<string> {
  const draft = await t.call('POST', '/v1/ops/draft-orders', {
    body: {
      merchant_team_id: merchantTeamId,
      payment_status: 'PENDING',
      shipping_address: SHIP_TO,
      line_items: [{ sku: 'JOURNEY-A-RATHER-LONG-SKU', quantity: 1, price: 10 }],
    },
  });
  expect(draft.statusCode).toBe(201);
  const order = await t.call('POST', `/v1/ops/draft-orders/${draft.json().id}/convert`);
  expect(order.statusCode).toBe(200);
  return order.json().id;
}

describe('tables on a terminal', () => {
  it('fit the terminal: at 80 columns the needed columns stay and ids are shortened unambiguously; at 200 nothing is cut', async () => {
    const ids = (await fos(['orders', 'list', '--json', 'id'])).stdout.match(UUID) ?? [];
    expect(ids.length).toBeGreaterThan(0);
    for (const width of [80, 200]) {
      const r = await fos(['orders', 'list'], { tty: true, width });
      expect(r.code).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      // At 80 columns the merchant (issue 34) takes the total's place; the total is named as hidden.
      expect(lines[0]).toMatch(/^ID\s+ORDER_NUMBER\s+MERCHANT_TEAM_NAME\s+STATUS\s+.*PRIORITY\s+CUSTOMER_NAME/);
      if (width === 200) expect(lines[0]).toMatch(/CUSTOMER_NAME\s+TOTAL_PRICE/);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
      if (width === 200) {
        for (const id of ids) expect(r.stdout).toContain(id);
        expect(r.stdout).not.toContain('…'); // timestamps whole too
        continue;
      }
      expect(r.stderr).toContain('(hidden to fit the terminal: ');
      expect(r.stderr).toContain('created_at');
      // each shown id is a prefix of exactly one real id
      const shown = lines.slice(1).map((l) => l.split(/\s+/)[0]);
      expect(shown).toHaveLength(ids.length);
      for (const s of shown) {
        expect(s).toMatch(/^[0-9a-f-]{8,35}$/); // no "…": it is pasted into the next command
        expect(ids.filter((id) => id.startsWith(s))).toHaveLength(1);
      }
    }
    const products = await fos(['products', 'list'], { tty: true, width: 80 });
    expect(products.stdout.split('\n')[0]).toMatch(/SKU\s+NAME\s+.*AVAILABLE\s+ON_HAND\s+COMMITTED$/);
  });

  it('a long record goes through the pager on a terminal: FOS_PAGER, --no-pager, cat, a missing pager', async () => {
    const id = (await fos(['orders', 'list', '--json', 'id'])).stdout.match(UUID)![0];
    const pagerEnv = { ...admin, FOS_PAGER: "sed 's/^/| /'" };
    const pagedOut = await runCli(['orders', 'get', id], { env: pagerEnv, tty: true, height: 10 });
    expect(pagedOut.code).toBe(0);
    const lines = pagedOut.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(10);
    for (const l of lines) expect(l.startsWith('| ')).toBe(true);
    // short enough for the terminal: printed directly
    const tall = await runCli(['orders', 'get', id], { env: pagerEnv, tty: true, height: 500 });
    expect(tall.stdout).not.toMatch(/^\| /m);
    const noPager = await runCli(['orders', 'get', id, '--no-pager'], { env: pagerEnv, tty: true, height: 10 });
    expect(noPager.stdout).not.toMatch(/^\| /m);
    expect(noPager.stdout).toContain(id);
    const cat = await runCli(['orders', 'get', id], { env: { ...admin, FOS_PAGER: 'cat', PAGER: "sed 's/^/| /'" }, tty: true, height: 10 });
    expect(cat.stdout).not.toMatch(/^\| /m);
    const viaPager = await runCli(['orders', 'get', id], { env: { ...admin, PAGER: "sed 's/^/| /'" }, tty: true, height: 10 });
    expect(viaPager.stdout).toMatch(/^\| id\s/m);
    const missing = await runCli(['orders', 'get', id], { env: { ...admin, FOS_PAGER: 'no-such-pager-xyz' }, tty: true, height: 10 });
    expect(missing.code).toBe(0);
    expect(missing.stdout).toMatch(new RegExp(`^id\\s+${id}$`, 'm'));
    const piped = await runCli(['orders', 'get', id], { env: pagerEnv, height: 10 });
    expect(JSON.parse(piped.stdout).id).toBe(id);
  });

  it('piped --format table cuts nothing', async () => {
    const r = await fos(['products', 'list', '--format', 'table'], { width: 40 });
    expect(r.stdout).toContain('JOURNEY-A-RATHER-LONG-SKU');
    expect(r.stdout).not.toContain('…');
  });

  it('orders get shows the fields that have values, then the line items as a table', async () => {
    const id = (await fos(['orders', 'list', '--json', 'id'])).stdout.match(UUID)![0];
    const r = await fos(['orders', 'get', id], { tty: true, width: 160 });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^id\\s+${id}$`, 'm'));
    expect(r.stdout).not.toMatch(/^cancelled_at\s*$/m); // null fields are left out
    expect(r.stdout).not.toContain('[1 items]');
    expect(r.stdout).toMatch(
      /^core_order_line_items \(1\)\n {2}ID\s+SKU\s+NAME\s+TOTAL_QUANTITY\s+REMAINING_QUANTITY\n {2}\S{36}\s+JOURNEY-A-RATHER-LONG-SKU\s+Product JOURNEY-A-RATHER-LONG-SKU\s+2\s+2$/m,
    );
    const json = await fos(['orders', 'get', id, '--json']);
    expect(JSON.parse(json.stdout)).toHaveProperty('cancelled_at', null); // --json still has everything
  });
});

describe('--all on a terminal', () => {
  it('streams JSON without drawing a progress line into it', async () => {
    const r = await fos(['products', 'list', '--all', '--json', 'sku', '--limit', '1'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toContainEqual({ sku: 'JOURNEY-A-RATHER-LONG-SKU' });
  });

  it('a table clears the page progress line before it prints (the header used to land on it)', async () => {
    const io = testIOStreams({ tty: true, width: 200 });
    const events: string[] = [];
    let bars = 0;
    io.progress = () => {
      const n = ++bars;
      return { update: () => events.push(`update#${n}`), done: () => events.push(`done#${n}`) };
    };
    const out = io.out.bind(io);
    io.out = async (text: string) => (events.push('out'), out(text));
    const ctx = createContext({ io, env: { ...admin, FOS_CONFIG_DIR: await tempConfigDir() } });
    const code = await run(['node', 'fos', 'products', 'list', '--all', '--limit', '1'], ctx, {
      loadServerCommands: async () => {
        throw new Error('no');
      },
    });
    expect(code).toBe(0);
    expect(events).toContain('update#1');
    expect(events.indexOf('done#1')).toBeGreaterThan(-1);
    expect(events.indexOf('done#1')).toBeLessThan(events.indexOf('out'));
    expect(io.stdoutText()).toMatch(/^ID\s+SKU\s+NAME/);
  });
});

describe('orders on hold', () => {
  it('fulfill run says the order is on hold; orders mark-paid lifts it; fulfill run then works', async () => {
    const orderId = await unpaidOrder();
    const held = await fos(['fulfill', 'run', orderId, '--rate-strategy', 'CHEAPEST', '--json', 'status,step,error.kind']);
    expect(held.code).toBe(5);
    expect(JSON.parse(held.stdout)).toEqual({ status: 'failed', step: 'lock', error: { kind: 'on-hold' } });

    const paid = await fos(['orders', 'mark-paid', orderId, '--json', 'payment_status,order_fulfillment_holds.active']);
    expect(paid.code).toBe(0);
    expect(JSON.parse(paid.stdout)).toEqual({ payment_status: 'PAID', order_fulfillment_holds: [{ active: false }] });
    const again = await fos(['orders', 'mark-paid', orderId]);
    expect(again.code).toBe(5);

    const upload = [
      '--label-url',
      'https://labels.example/1.pdf',
      '--tracking',
      '1ZJOURNEY',
      '--carrier',
      'UPS',
      '--service',
      'Ground',
      '--cost',
      '7.5',
    ];
    const done = await fos(['fulfill', 'run', orderId, ...upload, '--json', 'status,tracking_code']);
    expect(done.stderr).not.toMatch(/^error:/m);
    expect(JSON.parse(done.stdout)).toEqual({ status: 'fulfilled', tracking_code: '1ZJOURNEY' });
    const order = await t.db.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order.payment_status).toBe('PAID');
  });

  it('a bare `fos fulfill run` asks for ids before it asks for a label', async () => {
    const r = await fos(['fulfill', 'run', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: give an order or fulfillment order id, or --from <file|->\n');
  });
});

describe('login after fos serve saved the "local" profile', () => {
  it('refreshes the current profile, offering its URL, instead of adding "default"', async () => {
    const dir = await tempConfigDir();
    const first = await runCli(['login', '--base-url', baseUrl, '--with-token', '--profile', 'local'], {
      configDir: dir,
      stdin: t.adminToken,
    });
    expect(first.code).toBe(0);
    const offered: Array<string | undefined> = [];
    const r = await runCli(['login'], {
      configDir: dir,
      tty: true,
      prompts: { input: async (o) => (offered.push(o.default), o.default ?? ''), password: async () => t.adminToken },
    });
    expect(r.code).toBe(0);
    expect(offered).toEqual([baseUrl]);
    expect(r.stderr).toContain('saved profile "local"');
    const list = await runCli(['profile', 'list'], { configDir: dir });
    expect(JSON.parse(list.stdout).map((p: { name: string }) => p.name)).toEqual(['local']);
  });

  it('does not replace the key saved there without a yes: refused in scripts, asked on a terminal, --yes replaces (issue 35)', async () => {
    const dir = await tempConfigDir();
    await runCli(['login', '--base-url', baseUrl, '--with-token', '--profile', 'local'], { configDir: dir, stdin: t.adminToken });
    const other = (await t.key({ tier: 4 })).token;
    const savedKey = async () => JSON.parse(await readFile(path.join(dir, 'config.json'), 'utf8')).profiles.local.api_key;

    const script = await runCli(['login', '--with-token'], { configDir: dir, stdin: other });
    expect(script.code).toBe(2);
    expect(script.stderr).toMatch(/^error: profile "local" already holds a key \(fos_\S+\): pass --yes to replace it, or --profile <name>/);
    expect(await savedKey()).toBe(t.adminToken);

    const questions: string[] = [];
    const no = await runCli(['login', '--api-key', other], {
      configDir: dir,
      tty: true,
      prompts: { input: async (o) => o.default ?? '', confirm: async (o) => (questions.push(o.message), false) },
    });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain('cancelled');
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatch(/^Profile "local" holds another key \(fos_\S+ for http:\/\/127\.0\.0\.1:\d+\/v1\); replace it\?$/);
    expect(await savedKey()).toBe(t.adminToken);

    const yes = await runCli(['login', '--api-key', other], {
      configDir: dir,
      tty: true,
      prompts: { input: async (o) => o.default ?? '', confirm: async () => true },
    });
    expect(yes.code, yes.stderr).toBe(0);
    expect(await savedKey()).toBe(other);

    const forced = await runCli(['login', '--with-token', '--yes'], { configDir: dir, stdin: t.adminToken });
    expect(forced.code, forced.stderr).toBe(0);
    expect(await savedKey()).toBe(t.adminToken);
  });
});
