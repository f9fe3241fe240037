import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { renderCommandTable, renderOperationTable } from '../../scripts/readme-tables.mjs';
import { buildProgram } from '../../src/cli/main.js';
import { createContext } from '../../src/cli/context.js';
import { registerServerCommands } from '../../src/server/cli.js';
import { testApp, type TestApp } from '../helpers/app.js';

// README.md's operation and command tables are generated (scripts/gen-readme.mjs); this fails
// when a route or command changes without regenerating them, so the README stays true.

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

describe('README.md', () => {
  it('lists every API operation with its permission', () => {
    expect(readme).toContain(renderOperationTable(t.app.swagger()));
  });

  it('lists every command', async () => {
    const program = await buildProgram(createContext());
    registerServerCommands(program);
    expect(readme).toContain(renderCommandTable(program));
  });
});
