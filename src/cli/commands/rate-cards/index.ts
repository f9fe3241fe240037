import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { printList } from '../../output/print.js';
import { declareOutput, fixed, response } from '../../output/shape.js';
import { addArguments, commandOf, withExamples } from '../../shared/help.js';
import { listCommand } from '../../shared/list.js';
import { getCommand, group, seg, writeCommand } from '../../shared/resource.js';
import { diffVersions } from './diff.js';

// `fos rate-cards …` (docs/billing.md): versioned rate cards. A version is edited as a YAML or
// JSON file: `show <card> <version> --json > v.json` gives one that `publish v.json` accepts.

const contract = () => import('../../../contract/rate-cards.js');
const cardSchema = response(async () => (await contract()).RateCardSchema);
const versionSchema = response(async () => (await contract()).RateCardVersionSchema);
const asIs = async (_ctx: Context, args: string[]) => args;
const versionPath = (card: string, version: string) => `/ops/rate-cards/${seg(card)}/versions/${seg(version)}`;

/** A YAML or JSON document (YAML is a superset of JSON; '-' reads stdin). */
export async function readDocument(file: string, what: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    const doc = (await import('yaml')).parse(text) as unknown;
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`expected ${what} (an object)`);
    return doc as Record<string, unknown>;
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message.split('\n')[0]}`);
  }
}

function publish(ctx: Context): Command {
  let doc: Record<string, unknown> = {};
  const cmd = writeCommand(ctx, {
    output: versionSchema,
    name: 'publish',
    description: 'Publish a rate-card version from a YAML or JSON file (- for stdin); the card is made on its first version',
    method: 'POST',
    mode: 'action',
    bodyOptions: false,
    args: ['<file>'],
    path: () => '/ops/rate-cards/versions',
    resolveArgs: asIs,
    transform: () => doc,
    examples: ['fos rate-cards publish standard-2026.yaml', 'fos rate-cards show Standard current --json | fos rate-cards publish -'],
  });
  // The file is read (asynchronously: yaml loads on demand) before the body is built.
  cmd.hook('preAction', async (_cmd, action) => {
    doc = await readDocument(action.args[0], 'a rate-card version');
  });
  return cmd;
}

function diff(ctx: Context): Command {
  const cmd = new Command('diff').description(
    'What changed between two versions of a card: fees added, removed or changed, and card fields',
  );
  addArguments(cmd, ['<card>', '<from-version>', '<to-version>']);
  cmd.action(async (...args: unknown[]) => {
    const [card, from, to] = commandOf(args).processedArgs as string[];
    const client = ctx.client();
    const [a, b] = await Promise.all([client.get(versionPath(card, from)), client.get(versionPath(card, to))]);
    await printList(ctx, diffVersions(a as never, b as never));
  });
  declareOutput(cmd, fixed('one row per change: { what, change, from, to }'));
  return withExamples(cmd, ['fos rate-cards diff Standard 1.0.0 1.1.0', 'fos rate-cards diff Standard 1.0.0 current --json']);
}

function test(ctx: Context): Command {
  let event: Record<string, unknown> = {};
  return writeCommand(ctx, {
    output: response(async () => (await contract()).RateCardTestResult),
    name: 'test',
    description: 'Price a sample billable event by the card (nothing is recorded): which fee matched and the amount',
    method: 'POST',
    mode: 'action',
    bodyOptions: false,
    args: ['<card>'],
    path: ([card]) => `/ops/rate-cards/${seg(card)}/test`,
    configure: (c) =>
      c
        .requiredOption('--event <json>', 'the event as JSON, or @file (YAML or JSON): { event, merchant_team_id, units, … }')
        .option('--at <time>', 'price by the version in force at this ISO time (default now)'),
    resolveArgs: async (_ctx, args) => args,
    transform: (_body, opts) => {
      const raw = String(opts.event);
      if (!raw.startsWith('@')) {
        try {
          event = JSON.parse(raw) as Record<string, unknown>;
        } catch (err) {
          throw new UsageError(`--event: not JSON: ${(err as Error).message}`);
        }
      }
      return { event, ...(opts.at ? { at: String(opts.at) } : {}) };
    },
    examples: [
      `fos rate-cards test Standard --event '{"event":"PICK","merchant_team_id":"0193…","units":3}'`,
      'fos rate-cards test Standard --event @sample-event.yaml --at 2026-01-20T00:00:00Z',
    ],
  });
}

export default (ctx: Context): Command => {
  const t = test(ctx);
  // --event @file: read before the body is built.
  t.hook('preAction', async (cmd) => {
    const raw = String(cmd.opts().event ?? '');
    if (raw.startsWith('@')) cmd.setOptionValue('event', JSON.stringify(await readDocument(raw.slice(1), 'an event')));
  });
  return group('rate-cards', 'Versioned rate cards: fee rules that price what this team bills merchants', [
    listCommand(ctx, {
      output: cardSchema,
      description: "List this team's rate cards and their versions",
      path: () => '/ops/rate-cards',
      query: [],
      columns: ['id', 'name', 'current_version_id', 'versions.length', 'delegation_ids', 'updated_at'],
      examples: ['fos rate-cards list', 'fos rate-cards list --json id,name,versions'],
    }),
    getCommand(ctx, {
      output: versionSchema,
      name: 'show',
      description: 'Show a version of a card (its id, semantic version, or current): the document publish accepts',
      args: ['<card>', '[version]'],
      resolveArgs: asIs,
      path: ([card, version]) => versionPath(card, version ?? 'current'),
      examples: ['fos rate-cards show Standard', 'fos rate-cards show Standard 1.2.0 --json > standard.json'],
    }),
    getCommand(ctx, {
      output: cardSchema,
      name: 'versions',
      description: 'Show a card with its versions and the delegations it prices',
      args: ['<card>'],
      resolveArgs: asIs,
      path: ([card]) => `/ops/rate-cards/${seg(card)}`,
      examples: ['fos rate-cards versions Standard'],
    }),
    publish(ctx),
    diff(ctx),
    t,
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/order-exceptions.js')).DelegationSchema),
      name: 'assign',
      description: 'Price a merchant by this card: point its delegation at it (--none: back to the JSON card)',
      method: 'PUT',
      mode: 'action',
      bodyOptions: false,
      args: ['<delegation-id>', '[card]'],
      resolveArgs: asIs,
      path: ([delegation]) => `/ops/delegations/${seg(delegation)}/rate-card-id`,
      configure: (c) => c.option('--none', 'unassign: the delegation falls back to its JSON rate card'),
      transform: (_body, opts, [, card]) => {
        if (Boolean(card) === Boolean(opts.none)) throw new UsageError('give a card, or --none');
        return { rate_card_id: card ?? null };
      },
      examples: ['fos rate-cards assign 0193… Standard', 'fos rate-cards assign 0193… --none'],
    }),
  ]);
};
