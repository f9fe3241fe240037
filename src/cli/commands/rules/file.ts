import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { UsageError } from '../../errors.js';

// Rule files are YAML or JSON (JSON is YAML: one parser reads both), `-` = stdin.

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
