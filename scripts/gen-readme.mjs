#!/usr/bin/env node
// Regenerates README.md's operation and command tables from the built code.
// Usage: npm run build && node scripts/gen-readme.mjs
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCommandTable, renderOperationTable, replaceBlock } from './readme-tables.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(path.join(root, 'dist', p));

const dir = mkdtempSync(path.join(tmpdir(), 'fos-readme-'));
const url = `file:${path.join(dir, 'fos.db')}`;
const [{ migrate }, { createDb }, { buildApp }, { buildProgram }, { createContext }, { registerServerCommands }] = await Promise.all([
  dist('db/migrate.js'), dist('db/client.js'), dist('server/app.js'), dist('cli/main.js'), dist('cli/context.js'), dist('server/cli.js'),
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

const file = path.join(root, 'README.md');
let text = readFileSync(file, 'utf8');
text = replaceBlock(text, 'api-table', renderOperationTable(doc));
text = replaceBlock(text, 'cli-commands', renderCommandTable(program));
writeFileSync(file, text);
console.log('README.md tables regenerated');
