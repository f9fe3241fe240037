import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src/client/errors.js';
import { createContext } from '../../src/cli/context.js';
import { CliError, ExitCode, UsageError, exitCodeFor, exitCodeForStatus, renderError } from '../../src/cli/errors.js';
import { testIOStreams } from '../../src/cli/iostreams.js';
import { firstCommand, run } from '../../src/cli/main.js';
import { VERSION } from '../../src/version.js';
import { runCli, tempConfigDir } from './helpers/cli.js';
import { FakeApi, problem } from './helpers/fake-api.js';

const TOKEN = 'fos_DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD_dddddd';
const api = new FakeApi(TOKEN);
let env: Record<string, string> = {};

beforeAll(async () => {
  const conflict = (kind: string, title: string) => () =>
    problem(409, kind, title, 'Fulfillment order 1 is locked by station-2 until 10:15.', { lock_owner: 'station-2' });
  api
    .on('GET', '/v1/ops/orders/:id', ({}, { id }) => problem(404, 'not-found', 'Not Found', `Order ${id} was not found.`))
    .on('POST', '/v1/ops/fulfillment-orders/:id/lock', conflict('lock-held', 'Lock Held'))
    .on('GET', '/v1/keys', () =>
      problem(403, 'forbidden', 'Forbidden', 'This key lacks the MANAGE_API_KEYS permission this operation requires.'),
    )
    .on('GET', '/v1/me', () => ({ body: { key_id: 'k0', team_kind: 'FULFILLER' } })) // charges read the key's family first
    .on('GET', '/v1/ops/charges', () => problem(500, 'internal', 'Internal Server Error', 'The server failed to handle the request.'))
    .on('GET', '/v1/ops/files', () => ({
      ...problem(429, 'rate-limited', 'Too Many Requests', 'Rate limit of 30 requests per 60 seconds exceeded.'),
      headers: { 'content-type': 'application/problem+json', 'retry-after': 0 },
    }))
    .on('PATCH', '/v1/ops/orders/:id/priority', () =>
      problem(400, 'validation-failed', 'Validation Failed', 'Invalid request: body.priority is required.', {
        errors: [{ path: 'body.priority', message: 'is required' }],
      }),
    );
  env = { FOS_BASE_URL: await api.start(), FOS_API_KEY: TOKEN };
});
afterAll(() => api.stop());

describe('exit codes', () => {
  it('maps HTTP statuses', () => {
    expect([400, 401, 403, 404, 409, 413, 422, 429, 500, 502].map(exitCodeForStatus)).toEqual([2, 3, 3, 4, 5, 2, 2, 6, 1, 1]);
    expect(ExitCode).toEqual({ OK: 0, ERROR: 1, USAGE: 2, AUTH: 3, NOT_FOUND: 4, CONFLICT: 5, RATE_LIMITED: 6, NETWORK: 7, DATABASE: 8 });
  });

  it('maps error classes', () => {
    expect(exitCodeFor(new UsageError('x'))).toBe(2);
    expect(exitCodeFor(new NetworkError('http://h/v1/x', 'ECONNREFUSED', new Error('connect ECONNREFUSED')))).toBe(7);
    expect(exitCodeFor(new Error('boom'))).toBe(1);
    expect(exitCodeFor(Object.assign(new Error('help'), { code: 'commander.helpDisplayed', exitCode: 0 }))).toBe(0);
    expect(exitCodeFor(Object.assign(new Error('bad'), { code: 'commander.unknownOption', exitCode: 1 }))).toBe(2);
  });
});

describe('rendering', () => {
  const notFound = new ApiError({
    status: 404,
    type: 'urn:fos:error:not-found',
    title: 'Not Found',
    detail: 'Order 7 was not found. (support reference: 0123456789abcdef)',
    body: {},
    method: 'GET',
    url: 'http://h/v1/ops/orders/7',
    errors: [{ path: 'params.id', message: 'unknown' }],
  });

  it('prints one line: error: <title>: <detail>', () => {
    expect(renderError(notFound)).toBe('error: Not Found: Order 7 was not found. (support reference: 0123456789abcdef)\n');
    expect(renderError(new CliError('cancelled'))).toBe('error: cancelled\n');
    expect(renderError(new NetworkError('http://h:1/v1/me', 'ECONNREFUSED', new Error('connect ECONNREFUSED 127.0.0.1:1')))).toBe(
      'error: network error: could not reach http://h:1: connect ECONNREFUSED 127.0.0.1:1\n',
    );
  });

  it('adds field errors only with --verbose', () => {
    expect(renderError(notFound, true)).toBe(
      'error: Not Found: Order 7 was not found. (support reference: 0123456789abcdef)\n  params.id: unknown\n',
    );
  });
});

describe('exit codes of real commands (fake API)', () => {
  const cases: [string[], number, RegExp][] = [
    [
      ['orders', 'get', '01a20692-0000-7000-8000-000000000007'],
      4,
      /^error: Not Found: Order 01a20692-0000-7000-8000-000000000007 was not found\. \(support reference: 0123456789abcdef\)\n$/,
    ],
    [
      ['fulfillment-orders', 'lock', '01900000-0000-7000-8000-0000000000f1'],
      5,
      /^error: Lock Held: Fulfillment order 1 is locked by station-2/,
    ],
    [['keys', 'list'], 3, /^error: Forbidden: This key lacks the MANAGE_API_KEYS/],
    [['charges', 'list'], 1, /^error: Internal Server Error: /],
    [
      ['orders', 'priority', '01a20692-0000-7000-8000-000000000001', 'HIGH'],
      2,
      /^error: Validation Failed: Invalid request: body\.priority is required\. \(support/,
    ],
  ];
  for (const [args, code, stderr] of cases) {
    it(`fos ${args.join(' ')} -> ${code}`, async () => {
      const r = await runCli(args, { env });
      expect(r.code).toBe(code);
      expect(r.stderr).toMatch(stderr);
      expect(r.stdout).toBe('');
    });
  }

  it('429 after the retries -> 6 (retry notices on stderr, then one error line)', async () => {
    const r = await runCli(['files', 'list'], { env });
    expect(r.code).toBe(6);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.slice(0, -1).every((l) => l.startsWith('warning: HTTP 429; retrying'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^error: Too Many Requests: Rate limit of 30/);
  });

  it('not logged in -> 3', async () => {
    const r = await runCli(['products', 'list']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: not logged in/);
  });
});

describe('usage errors from commander -> 2', () => {
  it.each([
    [['products', 'list', '--bogus']],
    [['products', 'get']],
    [['nosuchcommand']],
    [['products', 'list', '--limit', '0']],
    [['products', 'list', '--limit', 'x']],
    [['--format', 'yaml', 'products', 'list']],
    [[]],
  ])('fos %j', async (args) => {
    const r = await runCli(args, { env });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toBe('');
    expect(api.requests.filter((q) => q.path.startsWith('/v1/ops/products'))).toHaveLength(0);
  });

  it('--help and --version exit 0 on stdout', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: fos');
    expect(help.stdout).toContain('Exit codes:');
    const sub = await runCli(['products', 'list', '--help']);
    expect(sub.stdout).toContain('Examples:');
    expect(sub.stdout).toContain('Global Options:');
    const version = await runCli(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });
});

describe('server commands hook', () => {
  it('finds the command word after global options and help', () => {
    expect(firstCommand(['--profile', 'x', '--verbose', 'serve', '--port', '1'])).toBe('serve');
    expect(firstCommand(['help', 'db'])).toBe('db');
    // --json takes an optional value: commander reads the next word as it when it is not an option
    expect(firstCommand(['--json', 'products'])).toBeUndefined();
    expect(firstCommand(['--json', 'id,name', 'products', 'list'])).toBe('products');
    expect(firstCommand(['--json', '--verbose', 'products'])).toBe('products');
    expect(firstCommand(['--version'])).toBeUndefined();
  });

  it('loads the server module only for server commands; reports a missing module with exit 1', async () => {
    let loads = 0;
    const io = testIOStreams();
    const ctx = createContext({ io, env: { FOS_CONFIG_DIR: await tempConfigDir() } });
    const failing = async () => {
      loads++;
      throw Object.assign(new Error("Cannot find module '/x/dist/server/cli.js'"), { code: 'ERR_MODULE_NOT_FOUND' });
    };
    expect(await run(['node', 'fos', 'serve', '--port', '0'], ctx, { loadServerCommands: failing })).toBe(1);
    expect(loads).toBe(1);
    expect(io.stderrText()).toMatch(/^error: fos serve is not available: the server module could not be loaded \(Cannot find module/);

    const ctx2 = createContext({ io: testIOStreams(), env: ctx.env });
    expect(await run(['node', 'fos', 'profile', 'list'], ctx2, { loadServerCommands: failing })).toBe(0);
    expect(loads).toBe(1);
  });

  it('registers the commands the module adds and runs them', async () => {
    const io = testIOStreams();
    const ctx = createContext({ io, env: { FOS_CONFIG_DIR: await tempConfigDir() } });
    let served: unknown;
    const code = await run(['node', 'fos', 'serve', '--port', '0'], ctx, {
      loadServerCommands: async () => ({
        registerServerCommands(program) {
          program
            .command('serve')
            .option('--port <n>')
            .action((o) => {
              served = o;
            });
        },
      }),
    });
    expect(code).toBe(0);
    expect(served).toEqual({ port: '0' });
  });
});
