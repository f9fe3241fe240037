import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Docs describe the code as it is (issue 38 item 4): every file or folder of the repository that
// README.md, CONTRIBUTING.md or docs/*.md names exists. Names with a placeholder (`<area>`, `*`,
// `…`) are patterns, not files, and are left out.

const ROOT = join(__dirname, '../..');
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const TOP = /^(src|test|scripts|bench|prisma|docs|bin|contrib|completions|\.ci)\//;

/** Repository paths a document names: in `code` spans and in markdown links. */
function pathsIn(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\s]+)`/g), ...text.matchAll(/\]\(((?:\.\.\/)?[^)\s#]+)/g)].map((m) => m[1]);
  return spans
    .map((s) =>
      s
        .replace(/^\.\.\//, '')
        .replace(/[.,:;]+$/, '')
        .replace(/#.*$/, ''),
    )
    .filter((s) => TOP.test(s))
    .filter((s) => !/[<>*…{}$]|\.\.\.|\[/.test(s));
}

/** A named module may be given by its built name (`src/x.js` for `src/x.ts`). */
const exists = (p: string) => existsSync(join(ROOT, p)) || (p.endsWith('.js') && existsSync(join(ROOT, p.replace(/\.js$/, '.ts'))));

describe('the docs name what exists', () => {
  it('every repository path in README.md, CONTRIBUTING.md and docs/ exists', () => {
    const missing = DOCS.flatMap((doc) =>
      pathsIn(readFileSync(join(ROOT, doc), 'utf8'))
        .filter((p) => !exists(p))
        .map((p) => `${doc}: ${p}`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });

  it('finds the paths in code spans and links (the check itself works)', () => {
    expect(pathsIn('see `src/db/tx.ts`, [x](../test/unit/a.test.ts#b) and `src/domain/<area>/`')).toEqual([
      'src/db/tx.ts',
      'test/unit/a.test.ts',
    ]);
  });
});
