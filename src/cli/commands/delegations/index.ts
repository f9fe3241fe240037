import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { listCommand } from '../../shared/list.js';
import { group, seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

// `fos delegations list`, `fos delegations rate-card set <id> card.json` (docs/charges.md).

function readCard(file: string): Record<string, unknown> {
  try {
    return JSON.parse(file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new UsageError(`cannot read ${file} as JSON: ${(err as Error).message}`);
  }
}

const list = (ctx: Context): Command =>
  listCommand(ctx, {
    output: response(async () => (await import('../../../contract/order-exceptions.js')).DelegationSchema),
    description: 'List the merchants this team fulfills for, with their rate cards',
    path: () => '/ops/delegations',
    query: [],
    columns: ['id', 'merchant_team_name', 'active', 'rate_card_name', 'merchant_team_id', 'updated_at'],
    examples: ['fos delegations list', 'fos delegations list --json id,rate_card.version_id'],
  });

const set = (ctx: Context): Command =>
  writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/order-exceptions.js')).DelegationSchema),
    name: 'set',
    description: "Set a delegation's rate card from a JSON file (- for stdin): a new version for new charges",
    method: 'PUT',
    mode: 'action',
    bodyOptions: false,
    args: ['<delegation-id>', '<card.json>'],
    path: ([id]) => `/ops/delegations/${seg(id)}/rate-card`,
    transform: (_body, _opts, [, file]) => readCard(file),
    examples: [
      'fos delegations rate-card set 0193… card.json',
      'fos delegations rate-card set 0193… - < card.json --json rate_card.version_id',
    ],
  });

export default (ctx: Context) =>
  group('delegations', 'Merchants this team fulfills for, and their rate cards', [
    list(ctx),
    group('rate-card', "A delegation's rate card", [set(ctx)]),
  ]);
