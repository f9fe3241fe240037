#!/usr/bin/env node
// Writes completions/fos.bash, completions/_fos (zsh) and completions/fos.fish from the built
// CLI's command tree (server commands included when dist/server/cli.js loads).
// Usage: npm run build && node scripts/gen-completions.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/fos.js');
if (!existsSync(path.join(root, 'dist/cli/main.js'))) {
  console.error('gen-completions: dist/ is missing; run `npm run build` first');
  process.exit(1);
}

const targets = { bash: 'fos.bash', zsh: '_fos', fish: 'fos.fish' };
const dir = path.join(root, 'completions');
mkdirSync(dir, { recursive: true });
for (const [shell, file] of Object.entries(targets)) {
  // A clean environment: no profile or colour settings leak into the scripts.
  const script = execFileSync(process.execPath, [bin, 'completion', shell], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, NO_COLOR: '1' },
  });
  writeFileSync(path.join(dir, file), script);
  console.log(`wrote completions/${file} (${script.split('\n').length} lines)`);
}
