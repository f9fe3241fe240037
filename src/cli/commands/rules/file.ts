import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { UsageError } from '../../errors.js';

// Rule files are YAML or JSON (JSON is YAML: one parser reads both), `-` = stdin.

/**
 * What a rule may name by name as a lead writes it (`warehouse_id: Columbus DC`, `merchant_team_id:
 * Acme Outdoor`): sent as the ids the API takes (shared/refs.ts), so an exported file still imports.
 */
export const RULE_REFS = [
  { key: 'actions.warehouse_id', ref: 'warehouse' },
  { key: 'merchant_team_id', ref: 'merchant' },
  { key: 'conditions.merchant_team_id', ref: 'merchant' }, // the top level's (not inside any/all/not)
] as const;

function readDocument(file: string): unknown {
  try {
    return parse(file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read ${file} as YAML or JSON: ${(err as Error).message}`);
  }
}

/** A rule (or a hypothetical order) from a YAML or JSON file; unreadable is a usage error (exit 2). */
export function readRuleFile(file: string): Record<string, unknown> {
  const parsed = readDocument(file);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`${file}: expected one object (a mapping)`);
  return parsed as Record<string, unknown>;
}

/** A list of rules (fos rules import): a sequence, or { rules: [...] } as `fos rules export` writes. */
export function readRuleList(file: string): Record<string, unknown>[] {
  const parsed = readDocument(file) as unknown;
  const list = Array.isArray(parsed) ? parsed : (parsed as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(list) || list.some((r) => !r || typeof r !== 'object' || Array.isArray(r))) {
    throw new UsageError(`${file}: expected a list of rules (or rules: [...])`);
  }
  return list as Record<string, unknown>[];
}
