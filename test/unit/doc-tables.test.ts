import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { renderCommandTable, renderOperationTable } from '../../scripts/doc-tables.mjs';
import { buildProgram } from '../../src/cli/main.js';
import { createContext } from '../../src/cli/context.js';
import { registerServerCommands } from '../../src/server/cli.js';
import { testApp, type TestApp } from '../helpers/app.js';

// The operations table (docs/api.md) and the command table (docs/cli.md) are generated
// (scripts/gen-doc-tables.mjs); this fails when a route or command changes without regenerating
// them, so the docs stay true.

const doc = (rel: string) => readFileSync(new URL(`../../${rel}`, import.meta.url), 'utf8');
let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

describe('generated doc tables', () => {
  it('docs/api.md lists every API operation with its permission', () => {
    expect(doc('docs/api.md')).toContain(renderOperationTable(t.app.swagger()));
  });

  it('docs/cli.md lists every command', async () => {
    const program = await buildProgram(createContext());
    registerServerCommands(program);
    expect(doc('docs/cli.md')).toContain(renderCommandTable(program));
  });
});
