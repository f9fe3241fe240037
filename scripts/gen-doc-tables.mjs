#!/usr/bin/env node
// Regenerates the generated tables of the docs from the built code: the operations table of
// docs/api.md and the command table of docs/cli.md (test/unit/doc-tables.test.ts checks them).
// Usage: npm run build && node scripts/gen-doc-tables.mjs
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCommandTable, renderOperationTable, replaceBlock } from './doc-tables.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(path.join(root, 'dist', p));

const dir = mkdtempSync(path.join(tmpdir(), 'fos-doc-tables-'));
const url = `file:${path.join(dir, 'fos.db')}`;
const [{ migrate }, { createDb }, { buildApp }, { buildProgram }, { createContext }, { registerServerCommands }] = await Promise.all([
  dist('db/migrate.js'),
  dist('db/client.js'),
  dist('server/app.js'),
  dist('cli/main.js'),
  dist('cli/context.js'),
  dist('server/cli.js'),
]);
await migrate(url);
const db = await createDb(url);
const app = await buildApp({ db, config: { logger: false } });
await app.ready();
const doc = app.swagger();
await app.close();
await db.close();
rmSync(dir, { recursive: true, force: true });

const program = await buildProgram(createContext());
registerServerCommands(program);

const regenerate = (rel, block, table) => {
  const file = path.join(root, rel);
  writeFileSync(file, replaceBlock(readFileSync(file, 'utf8'), block, table));
};
regenerate('docs/api.md', 'api-table', renderOperationTable(doc));
regenerate('docs/cli.md', 'cli-commands', renderCommandTable(program));
console.log('docs/api.md and docs/cli.md tables regenerated');
