// Output options are checked before anything is sent (src/cli/output/precheck.ts): every write
// command given an unknown --json field, a --jq that does not compile or a --template that does
// not parse exits 2 and the loopback API double receives no request. A member the API returns
// once (a key's token) is printed whatever the selection. The spawned cases run bin/fos.js (the
// built CLI, on the Node running the tests: CI runs the suite on Node 20 and 24) twice each.
import { spawn } from 'node:child_process';
import type { Argument, Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/context.js';
import { testIOStreams } from '../../src/cli/iostreams.js';
import { buildProgram } from '../../src/cli/main.js';
import { outputOf } from '../../src/cli/output/shape.js';
import { packageRoot } from '../../src/db/migrate.js';
import { runCli, tempConfigDir } from './helpers/cli.js';
import { FakeApi } from './helpers/fake-api.js';
import { leaves } from './helpers/commands.js';

const KEY = 'fos_test_key';
const api = new FakeApi(KEY);
let baseUrl = '';
let configDir = '';
const CREATED_KEY = {
  id: 'k1',
  name: 's',
  description: null,
  power_role: 'MEMBER',
  rate_tier: 1,
  token_hint: 'fos_…abcd',
  team_id: 't1',
  roles: [],
  permissions: [],
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  token: 'fos_secret_token_shown_once',
};

beforeAll(async () => {
  api.on('POST', '/v1/keys', () => ({ status: 201, body: CREATED_KEY }));
  baseUrl = await api.start();
  configDir = await tempConfigDir();
});
afterAll(() => api.stop());

const env = () => ({ FOS_BASE_URL: baseUrl, FOS_API_KEY: KEY });

/** Options a command checks before its output options are reached (fulfill run: how to label). */
const EXTRA: Record<string, string[]> = { 'fulfill run': ['--rate-strategy', 'CHEAPEST'] };

/** Arguments that get a command past commander's own checks: a value per argument and mandatory option. */
function minimalArgs(name: string, cmd: Command): string[] {
  const args = (cmd.registeredArguments as Argument[]).map((a) => a.argChoices?.[0] ?? '0193abcd');
  for (const o of cmd.options as Option[]) {
    if (o.mandatory) args.push(o.long!, o.argChoices?.[0] ?? '1');
  }
  return [...args, ...(EXTRA[name] ?? [])];
}

const BAD: [string, string[], RegExp][] = [
  ['an unknown --json field', ['--json', 'id,no_such_field'], /no_such_field|takes no --json|prints no record/],
  ['a --jq that does not compile', ['--jq', '.[ | bad'], /--jq: .*(syntax|compile)|takes no --json fields, --jq/],
  ['a --template that does not parse', ['--template', '{{#open}} never closed'], /--template: |takes no --json fields, --jq/],
];

describe('every write command refuses bad output options before it sends anything', () => {
  it.each(BAD)('%s: exit 2, no request', async (_what, bad, message) => {
    const program = await buildProgram(createContext({ io: testIOStreams(), env: {} }));
    const writes = leaves(program).filter(({ cmd }) => {
      const d = outputOf(cmd);
      if (!d || d.shape.kind === 'local' || d.shape.kind === 'any') return false;
      return d.route ? d.route.method !== 'GET' : true; // custom commands: imports, fulfill run, pack, files upload…
    });
    expect(writes.length).toBeGreaterThan(80);
    const sent: string[] = [];
    for (const { name, cmd } of writes) {
      const before = api.requests.length;
      const r = await runCli([...name.split(' '), ...minimalArgs(name, cmd), ...bad], { configDir, env: env() });
      const label = `fos ${name} ${bad.join(' ')}: ${r.stderr}`;
      expect(r.code, label).toBe(2);
      // An import checks --json against its summary once its file is read: here the file is missing.
      if (outputOf(cmd)!.shape.kind !== 'own' || !/^--json$/.test(bad[0]) || name === 'fulfill run')
        expect(r.stderr, label).toMatch(message);
      if (api.requests.length > before) sent.push(name);
    }
    expect(sent).toEqual([]);
  });
});

/** Runs the built CLI as a user does. */
function fos(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [`${packageRoot()}/bin/fos.js`, ...args], {
    env: { PATH: process.env.PATH, HOME: configDir, FOS_CONFIG_DIR: configDir, NO_COLOR: '1', ...env() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('bin/fos.js, each case twice', () => {
  const twice = async (args: string[]) => [await fos(args), await fos(args)];

  it.each([
    [
      ['keys', 'create', '--name', 's', '--json', 'id,name,tier,token'],
      /unknown field "tier" in --json; available fields:\n(.|\n)*rate_tier/,
    ],
    [['keys', 'create', '--name', 's', '--jq', '.id |'], /--jq: /],
    [['keys', 'create', '--name', 's', '--template', '{{#x}}'], /--template: /],
    [['fulfillment-orders', 'lock', '0193abcd', '--json', 'status,lock'], /unknown fields "status", "lock" in --json/],
    [
      ['locations', 'create', '--warehouse', 'w', '--range', 'A-01..A-02', '--json', 'created,nope'],
      /unknown field "nope" in --json; available fields:\n {2}created\n {2}data$/m,
    ],
    [
      ['products', 'update', '0193abcd', '--name', 'x', '--json', 'assembly_components.x'],
      /unknown field "assembly_components.x" in --json; available fields:/,
    ],
    [
      ['products', 'update', '0193abcd', '--name', 'x', '--json', 'id,assembly_products.sku'],
      /unknown field "assembly_products.sku" in --json; available fields of assembly_products:\n {2}assembly_product_id/,
    ],
  ])('fos %j -> exit 2, nothing sent', async (args, message) => {
    const before = api.requests.length;
    for (const r of await twice(args)) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
    expect(api.requests.slice(before)).toEqual([]);
  });

  it.each([
    [['--json', 'id,name,rate_tier'], 'stderr'],
    [['--json', 'id,token'], 'stdout'],
    [['--jq', '.id'], 'stderr'],
    [['--jq', '.token'], 'stdout'],
    [['--template', '{{id}} {{name}}'], 'stderr'],
    [['--template', 'export FOS_API_KEY={{token}}'], 'stdout'],
    [['--json'], 'stdout'],
  ])('keys create %j prints the token (on %s), exit 0', async (output, where) => {
    const before = api.requests.filter((r) => r.path === '/v1/keys').length;
    for (const r of await twice(['keys', 'create', '--name', 's', ...output])) {
      expect(r.code, r.stderr).toBe(0);
      expect(where === 'stdout' ? r.stdout : r.stderr).toContain(CREATED_KEY.token);
      if (where === 'stderr') {
        expect(r.stdout).not.toContain(CREATED_KEY.token);
        expect(r.stderr).toMatch(/token \(not in the selected output; shown only once: store it now\)/);
      } else expect(r.stderr).not.toContain(CREATED_KEY.token); // stderr is what scripts log
    }
    expect(api.requests.filter((r) => r.path === '/v1/keys').length - before).toBe(2);
  });

  it('a good selection prints just that', async () => {
    for (const r of await twice(['keys', 'create', '--name', 's', '--json', 'id,name,rate_tier'])) {
      expect(JSON.parse(r.stdout)).toEqual({ id: 'k1', name: 's', rate_tier: 1 });
    }
  });
});
