import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { none, response } from '../../output/shape.js';
import { listCommand } from '../../shared/list.js';
import { getCommand, group, resourcePath, writeCommand } from '../../shared/resource.js';
import apply from './apply.js';
import { readRuleFile, RULE_REFS } from './file.js';
import { exportRules, importRules } from './transfer.js';

// `fos rules …`: the team's automation rules (docs/automation.md): an ordered list; each rule's
// conditions and actions come from a YAML or JSON file (create/update --file, - for stdin);
// export/import move the whole list as one file; history shows a rule's versions.

const path = (id?: string, action?: string) => resourcePath('/ops/automation-rules', id, action);
const ruleSchema = response(async () => (await import('../../../contract/automation-rules.js')).RuleSchema);

export default (ctx: Context): Command =>
  group('rules', 'Automation rules: carrier, service, box, tags, priority and holds decided when orders arrive', [
    listCommand(ctx, {
      output: response(async () => (await import('../../../contract/automation-rules.js')).RuleListSchema),
      name: 'list',
      description: 'List the automation rules in evaluation order',
      path: () => path(),
      query: [
        { key: 'merchant_team_id', flag: '--merchant', arg: 'name|id', description: 'only rules scoped to this merchant', ref: 'merchant' },
      ],
      columns: ['position', 'id', 'name', 'enabled', 'version', 'merchant_team_id', 'updated_at'],
      examples: ['fos rules list', 'fos rules list --json'],
    }),
    getCommand(ctx, {
      output: ruleSchema,
      description: 'Show a rule: conditions, actions, version and who changed it last',
      args: ['<rule-id>'],
      path: ([id]) => path(id),
      examples: ['fos rules get 0193…'],
    }),
    writeCommand(ctx, {
      output: ruleSchema,
      name: 'create',
      description: 'Create a rule from a YAML or JSON file (- for stdin); refused with the path of any error',
      method: 'POST',
      mode: 'action',
      bodyOptions: false,
      configure: (cmd) =>
        cmd.requiredOption('--file <path>', 'the rule as YAML or JSON: name, conditions, actions, optional position/enabled'),
      transform: (_body, opts) => readRuleFile(String(opts.file)),
      refs: RULE_REFS,
      path: () => path(),
      examples: ['fos rules create --file light-domestic.yaml', 'cat rule.json | fos rules create --file -'],
    }),
    writeCommand(ctx, {
      output: ruleSchema,
      name: 'update',
      description: 'Change a rule (bumps its version): --file with the members to change, or -F key=value',
      method: 'PATCH',
      mode: 'update',
      args: ['<rule-id>'],
      configure: (cmd) => cmd.option('--file <path>', 'members to change, as YAML or JSON (- for stdin)'),
      transform: (body, opts) => ({ ...(opts.file ? readRuleFile(String(opts.file)) : {}), ...body }),
      refs: RULE_REFS,
      fields: [
        { key: 'name', description: 'new name' },
        { key: 'position', type: 'int', arg: 'n', min: 1, description: 'move to this place (1 = first)' },
      ],
      path: ([id]) => path(id),
      examples: [
        'fos rules update 0193… --position 1',
        'fos rules update 0193… -F enabled=false',
        'fos rules update 0193… --file rule.json',
      ],
    }),
    writeCommand(ctx, {
      output: none('answers 204: prints no record'),
      name: 'delete',
      description: 'Delete a rule (traces already on orders keep its id and version)',
      method: 'DELETE',
      mode: 'action',
      bodyOptions: false,
      args: ['<rule-id>'],
      path: ([id]) => path(id),
      confirm: (_, what) => `Delete automation rule ${what}?`,
      lookup: { path: ([id]) => path(id), label: (r) => r.name },
      done: ([id]) => `rule ${id} deleted`,
      examples: ['fos rules delete 0193… --yes'],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/automation-rules.js')).TestRulesResponse),
      name: 'test',
      description:
        'Show which rules would match an order (number or id) or a hypothetical order (--order-file) and what they would set; writes nothing',
      method: 'POST',
      mode: 'action',
      bodyOptions: false,
      args: ['[order]'],
      configure: (cmd) =>
        cmd.option(
          '--order-file <file>',
          'a hypothetical order as JSON (- for stdin): tags, shipping_address, line_items [{sku, quantity, weight}], …',
        ),
      resolveArgs: async (c, args) => (args[0] ? [await (await import('../../shared/order-ref.js')).orderIdOf(c.client(), args[0])] : []),
      transform: (_body, opts, args) => {
        if (!opts.orderFile === !args[0]) throw new UsageError('give an order (number or id) or --order-file <file>, one of them');
        return opts.orderFile ? { order: readRuleFile(String(opts.orderFile)) } : {};
      },
      argsToBody: ([id]) => (id ? { order_id: id } : {}),
      path: () => path(undefined, 'test'),
      examples: ['fos rules test 1001', 'fos rules test --order-file order.json'],
    }),
    listCommand(ctx, {
      output: response(async () => (await import('../../../contract/automation-rules.js')).RuleVersionListSchema),
      name: 'history',
      description: "A rule's versions, newest first: who changed it (API key), when, and what it was before and after",
      args: ['<rule-id>'],
      path: ([id]) => path(id, 'versions'),
      columns: ['created_at', 'change', 'version', 'key_name', 'key_id'],
      examples: ['fos rules history 0193…', 'fos rules history 0193… --json'],
    }),
    exportRules(ctx),
    importRules(ctx),
    apply(ctx),
  ]);
