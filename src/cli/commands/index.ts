import type { Command } from 'commander';
import type { Context } from '../context.js';
type Builder = (ctx: Context) => Command;
interface CommandEntry {
  /** The command's name: the word that selects it on the command line. */
  name: string;
  load: () => Promise<{ default: Builder }>;
}
const entry = (name: string, load: CommandEntry['load']): CommandEntry => ({ name, load });

/**
 * Every client command, by help section, as a name and a loader: a command line that names one
 * command loads only that command's modules (`fos products list` imports the products group,
 * not the other ~120 command modules); help, completion and unknown words load them all.
 * Builders only declare options and actions: they import commander and small helpers, never
 * undici/conf/inquirer at load time. test/cli/startup.test.ts checks each name against what its
 * loader builds. `fos fulfill run` goes in a `fulfill` group: commands/fulfill/{index,run}.ts.
 */
export const COMMAND_SECTIONS: [string, CommandEntry[]][] = [
  [
    'Getting started:',
    [
      entry('login', () => import('./login/login.js')),
      entry('logout', () => import('./login/logout.js')),
      entry('auth', () => import('./login/auth-status.js')),
      entry('profile', () => import('./profile/index.js')),
      entry('config', () => import('./config/index.js')),
    ],
  ],
  [
    'Workflows:',
    [
      entry('fulfill', () => import('./fulfill/index.js')),
      entry('pick', () => import('./pick/index.js')),
      entry('pack', () => import('./pack/index.js')),
    ],
  ],
  [
    'Resources:',
    [
      entry('products', () => import('./products/index.js')),
      entry('inventory', () => import('./inventory/index.js')),
      entry('locations', () => import('./locations/index.js')),
      entry('replenishments', () => import('./replenishments/index.js')),
      entry('work-orders', () => import('./work-orders/index.js')),
      entry('purchase-orders', () => import('./purchase-orders/index.js')),
      entry('returns', () => import('./returns/index.js')),
      entry('warehouses', () => import('./warehouses/index.js')),
      entry('vendors', () => import('./vendors/index.js')),
      entry('orders', () => import('./orders/index.js')),
      entry('draft-orders', () => import('./draft-orders/index.js')),
      entry('rules', () => import('./rules/index.js')),
      entry('fulfillment-orders', () => import('./fulfillment-orders/index.js')),
      entry('packages', () => import('./packages/index.js')),
      entry('scan-forms', () => import('./scan-forms/index.js')),
      entry('labels', () => import('./labels/index.js')),
      entry('carriers', () => import('./carriers/index.js')),
      entry('carrier-rates', () => import('./carrier-rates/index.js')),
      entry('charges', () => import('./charges/index.js')),
      entry('invoices', () => import('./invoices/index.js')),
      entry('billing', () => import('./billing/index.js')),
      entry('delegations', () => import('./delegations/index.js')),
      entry('rate-cards', () => import('./rate-cards/index.js')),
      entry('files', () => import('./files/index.js')),
      entry('picking-sessions', () => import('./picking-sessions/index.js')),
      entry('keys', () => import('./keys/index.js')),
      entry('audit', () => import('./audit/index.js')),
      entry('roles', () => import('./roles/index.js')),
      entry('mcp-connections', () => import('./mcp-connections/index.js')),
      entry('webhooks', () => import('./webhooks/index.js')),
      entry('shops', () => import('./shops/index.js')),
    ],
  ],
  ['Scripting:', [entry('api', () => import('./api/api.js')), entry('completion', () => import('./completion/completion.js'))]],
];
const COMPLETE_VALUES = entry('__complete', () => import('./completion/values.js'));

/**
 * Adds the client commands to the program: only `wanted`'s when it names one (and is not
 * `completion`, which walks the whole tree), else every command in help order.
 */
export async function registerCommands(program: Command, ctx: Context, wanted?: string): Promise<void> {
  const all = COMMAND_SECTIONS.flatMap(([heading, entries]) => entries.map((e) => ({ heading, entry: e })));
  const one = wanted !== 'completion' ? all.find((c) => c.entry.name === wanted) : undefined;
  if (one) {
    program.addCommand((await one.entry.load()).default(ctx).helpGroup(one.heading));
    return;
  }
  if (wanted === COMPLETE_VALUES.name) {
    // `fos __complete …` answers the shell's dynamic completions; it needs no other command.
    program.addCommand((await COMPLETE_VALUES.load()).default(ctx), { hidden: true });
    return;
  }
  const modules = await Promise.all(all.map((c) => c.entry.load()));
  modules.forEach((m, i) => program.addCommand(m.default(ctx).helpGroup(all[i].heading)));
  program.addCommand((await COMPLETE_VALUES.load()).default(ctx), { hidden: true });
}
