import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/db/migrate.js';

// The bench and the scripts import the built code (dist/) by path; a module moved in src/ breaks
// them silently (no test runs them). Each such import must name a source file that exists and
// names it exports (dist/ is built before the tests: npm test's pretest).

const root = packageRoot();
const files = ['bench', 'scripts'].flatMap((d) =>
  readdirSync(path.join(root, d))
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => path.join(root, d, f)),
);

describe('bench and scripts import dist modules that exist', () => {
  it('every ../dist/… import and dist(…) path has its source in src/, and every named import is exported', async () => {
    const problems: string[] = [];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const rel = path.relative(root, f);
      for (const m of text.matchAll(/import\s*\{([^}]+)\}\s*from\s*'(\.\.\/dist\/[^']+)'/g)) {
        const target = path.resolve(path.dirname(f), m[2]!);
        const source = path.join(root, 'src', path.relative(path.join(root, 'dist'), target)).replace(/\.js$/, '.ts');
        if (!existsSync(source)) {
          problems.push(`${rel}: ${m[2]} has no source`);
          continue;
        }
        const mod = (await import(pathToFileURL(target).href)) as Record<string, unknown>;
        for (const name of m[1]!
          .split(',')
          .map((x) => x.trim().split(/\s+as\s+/)[0]!)
          .filter(Boolean))
          if (!(name in mod)) problems.push(`${rel}: ${m[2]} does not export ${name}`);
      }
      for (const m of text.matchAll(/dist\('([^']+\.js)'\)/g))
        if (!existsSync(path.join(root, 'src', m[1]!.replace(/\.js$/, '.ts')))) problems.push(`${rel}: dist('${m[1]}') has no source`);
    }
    expect(problems).toEqual([]);
  });
});
