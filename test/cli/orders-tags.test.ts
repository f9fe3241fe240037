import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from '../api/orders.fixtures.js';
import { ensureCliBundle, spawnFos } from './helpers/spawn.js';

// `fos orders list --tag` (issue 34 item 4), spawned as users run it: a comma list and a repeated
// flag both mean "any of these tags"; a tag changed by a PATCH of the order is followed;
// --merchant and --shop by name.

let w: World;
let env: Record<string, string>;
const o: Record<string, { id: string }> = {};
beforeAll(async () => {
  await ensureCliBundle();
  w = await world();
  const base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  env = { FOS_BASE_URL: `${base}/v1`, FOS_API_KEY: w.token };
  await w.product('CT-A', { [w.east]: 10 });
  const mine = { payment_status: 'PAID', line_items: [line('CT-A', 1)] };
  o.wholesale = await w.order({ ...mine, tags: ['wholesale'] });
  o.gift = await w.order({ ...mine, tags: ['gift', 'web'] });
  o.plain = await w.order({ ...mine });
}, 240_000);
afterAll(() => w?.t.close());

const listed = async (...args: string[]) => {
  const r = await spawnFos(['orders', 'list', ...args, '--order', 'asc', '--format', 'json'], env);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).map((x: any) => x.id);
};

describe('fos orders list --tag', () => {
  it('takes a comma list or a repeated flag (any of the tags)', async () => {
    expect(await listed('--tag', 'wholesale')).toEqual([o.wholesale.id]);
    expect(await listed('--tag', 'wholesale,gift')).toEqual([o.wholesale.id, o.gift.id]);
    expect(await listed('--tag', 'web', '--tag', 'wholesale')).toEqual([o.wholesale.id, o.gift.id]);
    expect(await listed('--tag', 'none-such')).toEqual([]);
  });

  it('follows a PATCH of the tags', async () => {
    const r = await w.call('PATCH', `/v1/ops/orders/${o.plain.id}`, { tags: ['wholesale'] });
    expect(r.statusCode, r.body).toBe(200);
    expect(await listed('--tag', 'wholesale')).toEqual([o.wholesale.id, o.plain.id]);
  });

  it('--merchant and --shop take exact names; an unknown name is one line and exit 2', async () => {
    const merchant = (await w.t.db.prisma.team.findUniqueOrThrow({ where: { id: w.merchantId } })).name;
    await w.t.db.prisma.shop.create({
      data: { merchant_team_id: w.merchantId, fulfiller_team_id: w.t.teamId, name: 'Main St', slug: 'main-st' },
    });
    expect(await listed('--merchant', merchant, '--tag', 'gift')).toEqual([o.gift.id]);
    expect(await listed('--shop', 'Main St')).toEqual([]);
    const r = await spawnFos(['orders', 'list', '--shop', 'Nowhere'], env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('no shop of this team is named "Nowhere"');
  });
});
