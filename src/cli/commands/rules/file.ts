import { readFileSync } from 'node:fs';
import { UsageError } from '../../errors.js';

/** A rule (or a hypothetical order) as JSON from a file, `-` = stdin; unreadable is a usage error (exit 2). */
export function readRuleFile(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read ${file} as JSON: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`${file}: expected a JSON object`);
  return parsed as Record<string, unknown>;
}
