import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as contractEnums from '../../src/contract/enums.js';
import { ENUMS } from '../../src/cli/enums.js';

// Issue 38 item 3: the CLI's shapes come from the contract. Its `--json` field sets are the
// response schemas themselves (test/cli/output-shapes.test.ts) and the API answers it reads are
// picks of the contract's types (a dropped field fails the build). What is left to drift is a
// list of values written out again in src/cli: this test finds them.

const ROOT = join(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Literal arrays of two or more UPPER_CASE strings: `['PENDING', 'PAID']`. */
function literalLists(text: string): string[][] {
  const out: string[][] = [];
  for (const m of text.matchAll(/\[\s*('[A-Z][A-Z0-9_]*'(?:\s*,\s*'[A-Z][A-Z0-9_]*')+)\s*,?\s*\]/g)) {
    out.push(m[1].split(',').map((s) => s.trim().slice(1, -1)));
  }
  return out;
}

const contractLists = Object.entries(contractEnums).filter(
  (e): e is [string, readonly string[]] => Array.isArray(e[1]) && e[1].every((v) => typeof v === 'string'),
);
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v) => b.includes(v));

describe('the CLI and the contract: one source', () => {
  it('no list of values in src/cli repeats one of the contract’s enumerations', () => {
    const copies: string[] = [];
    for (const file of sources(join(ROOT, 'src/cli'))) {
      for (const list of literalLists(readFileSync(file, 'utf8'))) {
        const twin = contractLists.find(([, values]) => sameSet(values, list));
        if (twin) copies.push(`${relative(ROOT, file)}: [${list.join(', ')}] is ${twin[0]} (src/contract/enums.ts)`);
      }
    }
    expect(copies).toEqual([]);
  });

  it('every enumeration the CLI checks is a contract list, not a copy of one', () => {
    const contractValues = new Set(contractLists.map(([, values]) => values));
    const copied = Object.entries(ENUMS)
      .filter(([name, values]) => name !== 'webhook_event' && !contractValues.has(values))
      .map(([name]) => name);
    expect(copied).toEqual([]);
  });

  it('finds a copied list (the check itself works)', () => {
    expect(literalLists("values: ['PENDING', 'PAID'], x: ['a', 'b']")).toEqual([['PENDING', 'PAID']]);
  });
});
