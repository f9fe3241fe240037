import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeApi } from './helpers/fake-api.js';
import { runCli } from './helpers/cli.js';

// `fos packages void-label`: destructive, so --yes (or a prompt on a terminal) before the POST.

const TOKEN = 'fos_EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE_eeeeee';
const api = new FakeApi(TOKEN);
// A uuid, as the server's ids are: anything else is looked up as an order number.
const P1 = '01900000-0000-7000-8000-0000000000a1';
let env: Record<string, string> = {};

beforeAll(async () => {
  api.on('POST', '/v1/ops/packages/:id/label/void', ({}, { id }) => ({
    body: { id, status: 'PENDING', shipment_status: null, shipping_label: { refund_status: 'SUBMITTED' } },
  }));
  env = { FOS_BASE_URL: await api.start(), FOS_API_KEY: TOKEN };
});
afterAll(() => api.stop());
beforeEach(() => {
  api.requests.length = 0;
});

describe('packages void-label', () => {
  it('without a terminal needs --yes and sends nothing', async () => {
    const r = await runCli(['packages', 'void-label', P1], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --yes');
    expect(api.requests).toHaveLength(0);
  });

  it('--yes posts to the void path and prints the package', async () => {
    const r = await runCli(['packages', 'void-label', P1, '--yes'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(api.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/ops/packages/${P1}/label/void` });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: P1, shipping_label: { refund_status: 'SUBMITTED' } });
  });
});
