#!/usr/bin/env node
// The mechanical half of "one contract" (issue 24): moves the API's shapes into src/contract/ and
// rewrites every relative import of the moved files, in the whole tree. Re-runnable on any tree
// (a moved tree comes out unchanged), so it can be dropped and run again after merging branches:
//
//   node scripts/refactor-contract.mjs          (scripts/refactor-contract.sh wraps it with git mv)
//
// Moves (git mv when run in a git tree):
//   src/server/schemas/*.ts           -> src/contract/*.ts           TypeBox schemas, shared helpers
//   src/domain/orders/constants.ts    -> src/contract/orders-enums.ts      import-free enum lists
//   src/domain/inventory/constants.ts -> src/contract/inventory-enums.ts
//   src/domain/permissions.ts         -> src/contract/permissions.ts
// Import rewriting: every relative specifier ('./x.js', '../a/b.js', import('…'), vi.mock('…'))
// in src, test, scripts and bench is resolved from the importing file's OLD place; when it names
// a moved file, or the importing file itself moved, it is recomputed from the NEW places.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (p) => path.relative(root, p).split(path.sep).join('/');
const abs = (p) => path.join(root, p);

/** old path -> new path (repository-relative). */
function plannedMoves() {
  const moves = new Map();
  const schemas = abs('src/server/schemas');
  if (existsSync(schemas)) {
    for (const f of readdirSync(schemas)) if (f.endsWith('.ts')) moves.set(`src/server/schemas/${f}`, `src/contract/${f}`);
  }
  for (const [from, to] of [
    ['src/domain/orders/constants.ts', 'src/contract/orders-enums.ts'],
    ['src/domain/inventory/constants.ts', 'src/contract/inventory-enums.ts'],
    ['src/domain/permissions.ts', 'src/contract/permissions.ts'],
  ]) {
    if (existsSync(abs(from))) moves.set(from, to);
  }
  return moves;
}

function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    if (n === 'node_modules' || n === 'generated' || n === 'dist') return [];
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|mts|mjs|js|cjs)$/.test(n) ? [p] : [];
  });
}

const SPEC = /((?:from|import|mock|importActual)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\2/g;

/** Rewrites the relative imports of `text`, a file that was at `oldFile` and is now at `newFile`. */
function rewrite(text, oldFile, newFile, moves) {
  return text.replace(SPEC, (whole, lead, q, spec) => {
    const target = rel(path.resolve(path.dirname(abs(oldFile)), spec));
    const asTs = target.replace(/\.js$/, '.ts');
    const moved = moves.get(asTs);
    if (!moved && oldFile === newFile) return whole;
    const newTarget = moved ? (target.endsWith('.js') ? moved.replace(/\.ts$/, '.js') : moved) : target;
    let next = path
      .relative(path.dirname(abs(newFile)), abs(newTarget))
      .split(path.sep)
      .join('/');
    if (!next.startsWith('.')) next = `./${next}`;
    return `${lead}${q}${next}${q}`;
  });
}

const moves = plannedMoves();
if (moves.size === 0) {
  console.log('refactor-contract: nothing to move (already done)');
  process.exit(0);
}
const inGit = existsSync(abs('.git'));
const files = ['src', 'test', 'scripts', 'bench'].flatMap((d) => sourceFiles(abs(d))).map(rel);
let changed = 0;
for (const file of files) {
  const to = moves.get(file) ?? file;
  const text = readFileSync(abs(file), 'utf8');
  const next = rewrite(text, file, to, moves);
  if (to !== file) {
    mkdirSync(path.dirname(abs(to)), { recursive: true });
    if (inGit) execFileSync('git', ['mv', file, to], { cwd: root });
    else renameSync(abs(file), abs(to));
  }
  if (next !== text) {
    writeFileSync(abs(to), next);
    changed++;
  }
}
console.log(`refactor-contract: moved ${moves.size} files, rewrote imports in ${changed}`);
