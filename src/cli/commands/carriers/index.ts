import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { KEYLESS_INTEGRATION_TYPES } from '../../../contract/enums.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { getCommand, group, seg, writeCommand } from '../../shared/resource.js';
import { warehousesFilter } from '../../shared/flags.js';
import { response } from '../../output/shape.js';

// `fos carriers`: carrier platform accounts (EasyPost, Shippo) and the rate table, through
// /v1/ops/carrier-integrations (docs/carriers.md). The API key is sent once and never shown again;
// FOS_CARRIER_API_KEY keeps it out of the shell history.

const path = (id?: string, rest = '') => `/ops/carrier-integrations${id ? `/${seg(id)}` : ''}${rest}`;
const PLATFORM_NAMES: Record<string, string> = { EASYPOST: 'EasyPost', SHIPPO: 'Shippo', TABLE: 'Rate table (test carrier)' };

function connect(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/carrier-integrations.js')).CarrierIntegrationSchema),
    name: 'connect',
    description: 'Connect an EasyPost or Shippo account (test keys first), or the rate table',
    method: 'POST',
    mode: 'create',
    args: [new Argument('<platform>', 'easypost, shippo or table').choices(ENUMS.carrier_integration_platform)],
    path: () => path(),
    fields: [
      { key: 'name', description: "a name for the account (default: the platform's)" },
      { key: 'credentials.api_key', flag: '--api-key', arg: 'key', description: 'the platform API key (or FOS_CARRIER_API_KEY)' },
      {
        key: 'credentials.webhook_secret',
        flag: '--webhook-secret',
        arg: 'secret',
        description: 'signs its tracking webhooks (EasyPost webhook secret, Shippo HMAC secret or URL token)',
      },
      { key: 'api_base_url', arg: 'url', description: "a proxy or test double instead of the platform's real address" },
      warehousesFilter({ key: 'warehouse_ids', description: 'warehouses it serves, comma-separated (default all)' }),
      {
        key: 'enabled_carriers',
        flag: '--carriers',
        arg: 'id,…',
        type: 'list',
        description: 'carriers kept from its rates, e.g. usps,ups (default all)',
      },
    ],
    transform: (body, _opts, [platform]) => {
      const type = String(platform).toUpperCase();
      const out: Record<string, unknown> = { ...body, type, name: body.name ?? PLATFORM_NAMES[type] };
      const creds = (body.credentials ?? {}) as Record<string, unknown>;
      const envKey = ctx.env.FOS_CARRIER_API_KEY;
      if (!KEYLESS_INTEGRATION_TYPES.includes(type) && !creds.api_key && envKey) out.credentials = { ...creds, api_key: envKey };
      return out;
    },
    examples: [
      'FOS_CARRIER_API_KEY=EZTK… fos carriers connect easypost --webhook-secret whsec…',
      'fos carriers connect shippo --api-key shippo_test_… --carriers usps,ups',
      'fos carriers connect table',
    ],
  });
}

export default (ctx: Context) =>
  group('carriers', 'Carrier integrations: connect EasyPost or Shippo, test, disconnect', [
    listCommand(ctx, {
      output: response(async () => (await import('../../../contract/carrier-integrations.js')).CarrierIntegrationListSchema),
      description: 'List carrier integrations (credentials are never shown)',
      path: () => path(),
      columns: ['id', 'name', 'type', 'enabled', 'is_test', 'has_credentials'],
      examples: ['fos carriers list'],
    }),
    getCommand(ctx, {
      output: response(async () => (await import('../../../contract/carrier-integrations.js')).CarrierIntegrationSchema),
      description: 'Show a carrier integration',
      args: ['<integration-id>'],
      path: ([id]) => path(id),
      examples: ['fos carriers get 0193…'],
    }),
    connect(ctx),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/carrier-integrations.js')).CarrierIntegrationSchema),
      name: 'update',
      description: 'Change a carrier integration (new key, base URL, warehouses, carriers, enabled)',
      method: 'PATCH',
      mode: 'update',
      args: ['<integration-id>'],
      path: ([id]) => path(id),
      fields: [
        { key: 'name', description: 'its name' },
        { key: 'credentials.api_key', flag: '--api-key', arg: 'key', description: 'a new API key' },
        { key: 'credentials.webhook_secret', flag: '--webhook-secret', arg: 'secret', description: 'with --api-key: the webhook secret' },
        { key: 'api_base_url', arg: 'url', description: 'where its calls go' },
        { key: 'enabled', type: 'boolean', description: 'true or false' },
      ],
      examples: ['fos carriers update 0193… --enabled true'],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/carrier-integrations.js')).CarrierIntegrationTestSchema),
      name: 'test',
      description: "Make one real call with the integration's key; fails naming the cause (e.g. a refused key)",
      method: 'POST',
      mode: 'action',
      bodyOptions: false,
      args: ['<integration-id>'],
      path: ([id]) => path(id, '/test'),
      examples: ['fos carriers test 0193…'],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/carrier-integrations.js')).CarrierIntegrationSchema),
      name: 'disable',
      description: 'Stop rating and buying through an integration (credentials kept)',
      method: 'POST',
      mode: 'action',
      bodyOptions: false,
      args: ['<integration-id>'],
      path: ([id]) => path(id, '/disable'),
      examples: ['fos carriers disable 0193…'],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/carrier-integrations.js')).CarrierIntegrationSchema),
      name: 'disconnect',
      description: 'Disable an integration and erase its credentials (its labels stay)',
      method: 'DELETE',
      mode: 'action',
      bodyOptions: false,
      args: ['<integration-id>'],
      path: ([id]) => path(id),
      confirm: (_, what) => `Disconnect carrier integration ${what} and erase its credentials?`,
      lookup: { path: ([id]) => path(id), label: (r) => r.name },
      examples: ['fos carriers disconnect 0193… --yes'],
    }),
  ]);
