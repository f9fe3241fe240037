import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { stringify } from 'yaml';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { printRecord } from '../../output/print.js';
import { declareOutput, none, response } from '../../output/shape.js';
import { commandOf, withExamples } from '../../shared/help.js';
import { readRuleList, RULE_REFS } from './file.js';
import { resolveRefFields } from '../../shared/refs.js';

// `fos rules export --file rules.yaml` writes the team's rules, in evaluation order, as YAML (or
// JSON for a .json file; - = stdout): { rules: [{ name, enabled, merchant_team_id, conditions,
// actions }] }. `fos rules import --file rules.yaml` creates them after the existing ones, in the
// file's order (each through POST /v1/ops/automation-rules: a bad one is refused with its path
// and stops the import, the ones before it stay). Export then import round-trips.

const KEEP = ['name', 'enabled', 'merchant_team_id', 'conditions', 'actions'] as const;

export function exportRules(ctx: Context): Command {
  const cmd = new Command('export')
    .description('Write the rules (in evaluation order) to a YAML file, or JSON when it ends in .json; - for stdout')
    .requiredOption('--file <path>', 'where to write (- = stdout)');
  cmd.action(async (...args: unknown[]) => {
    const file = String((commandOf(args).opts() as { file: string }).file);
    const rules: Record<string, unknown>[] = [];
    for await (const r of ctx.client().paginate<Record<string, unknown>>('/ops/automation-rules', { limit: 100 })) {
      rules.push(Object.fromEntries(KEEP.filter((k) => r[k] !== null && r[k] !== undefined).map((k) => [k, r[k]])));
    }
    const text = file.endsWith('.json') ? `${JSON.stringify({ rules }, null, 2)}\n` : stringify({ rules });
    if (file === '-') ctx.io.stdout.write(text);
    else {
      writeFileSync(file, text);
      ctx.io.stderr.write(`${rules.length} rule${rules.length === 1 ? '' : 's'} written to ${file}\n`);
    }
  });
  declareOutput(cmd, none('writes the file (or stdout with --file -)'));
  return withExamples(cmd, ['fos rules export --file rules.yaml', 'fos rules export --file - > rules.json']);
}

export function importRules(ctx: Context): Command {
  const cmd = new Command('import')
    .description("Create the rules of a YAML or JSON file (fos rules export's format, or a list) after the existing ones, in order")
    .requiredOption('--file <path>', 'YAML or JSON (- for stdin)');
  cmd.action(async (...args: unknown[]) => {
    const file = String((commandOf(args).opts() as { file: string }).file);
    const list = readRuleList(file);
    if (!list.length) throw new UsageError(`${file}: no rules`);
    const client = ctx.client();
    const created: unknown[] = [];
    for (const rule of list) await resolveRefFields(() => client, rule, RULE_REFS); // all named first: a bad name creates none
    for (const rule of list) created.push(await client.post('/ops/automation-rules', rule));
    await printRecord(ctx, { created: created.length, rules: created });
  });
  declareOutput(
    cmd,
    response(async () => {
      const { Type } = await import('typebox');
      const { RuleSchema } = await import('../../../contract/automation-rules.js');
      return Type.Object({ created: Type.Integer(), rules: Type.Array(RuleSchema) });
    }),
  );
  return withExamples(cmd, ['fos rules import --file rules.yaml', 'fos rules export --file - | fos rules import --file -']);
}
