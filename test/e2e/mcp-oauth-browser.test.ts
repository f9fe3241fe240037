import { createServer, type Server } from 'node:http';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { runFos, serveSandbox, spawnServe, type ServeProcess } from '../helpers/serve-process.js';

// Issue 11's end-to-end check: `fos serve` as a process; the MCP SDK's own OAuth client discovers
// it from /mcp's 401, registers, and starts the flow; a real headless Chromium (Debian's chromium,
// driven by playwright-core) signs the person in, picks a preset and approves on the real page;
// the client then lists tools, reads, writes with confirm_write and is refused outside its preset.
// The person then disconnects it on the settings page, and `fos mcp-connections` sees it.

const CHROMIUM = process.env.FOS_TEST_CHROMIUM ?? '/usr/bin/chromium';
const PASSWORD = 'a long enough password';

let dir: string;
let env: NodeJS.ProcessEnv;
let server: ServeProcess;
let browser: Browser;
let callback: Server;
let callbackUrl: string;
let codes: Promise<URL>;
let apiKey: string;

const fos = (args: string[], input?: string, extraEnv: NodeJS.ProcessEnv = {}) =>
  runFos(args, { env: { ...env, ...extraEnv }, cwd: dir, input, timeoutMs: 60_000 });

async function ok(args: string[], input?: string, extraEnv?: NodeJS.ProcessEnv) {
  const r = await fos(args, input, extraEnv);
  expect(r.code, `fos ${args.join(' ')}\n${r.stderr}`).toBe(0);
  return r.stdout.trim() ? JSON.parse(r.stdout) : null;
}

/** FOS_SCREENSHOTS=<dir>: the pages as a laptop and a phone show them, to look at (not asserted). */
async function screenshots(page: Page, name: string) {
  const dirOut = process.env.FOS_SCREENSHOTS;
  if (!dirOut) return;
  const size = page.viewportSize();
  await page.screenshot({ path: path.join(dirOut, `${name}.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(dirOut, `${name}-phone.png`), fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** What a desktop agent keeps: its registration, PKCE verifier and tokens, in memory. */
class AgentAuth implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  get redirectUrl() {
    return callbackUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Desk Agent',
      redirect_uris: [callbackUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  readonly sentState = `st-${Date.now()}`;
  state() {
    return this.sentState;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

beforeAll(async () => {
  ({ dir, env } = await serveSandbox());
  const db = `file:${path.join(dir, 'fos.db')}`;
  await ok(['db', 'migrate', '--db', db]);
  const team = await ok(['admin', '--db', db, 'team', 'create', '--name', 'Leeds 3PL', '--kind', 'FULFILLER']);
  await ok(
    [
      'admin',
      '--db',
      db,
      'user',
      'create',
      '--email',
      'pat@example.com',
      '--name',
      'Pat Lee',
      '--team',
      team.id,
      '--power-role',
      'ADMIN',
      '--password-stdin',
    ],
    `${PASSWORD}\n`,
  );
  apiKey = (await ok(['admin', '--db', db, 'key', 'create', '--team', team.id, '--name', 'ops', '--power-role', 'ADMIN'])).token;
  server = await spawnServe(['--db', db, '--port', '0'], env, dir).started;

  let deliver!: (u: URL) => void;
  codes = new Promise((resolve) => (deliver = resolve));
  callback = createServer((req, res) => {
    deliver(new URL(req.url!, callbackUrl));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>You can close this window.</p>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  callback?.close();
  server?.child.kill('SIGTERM');
  await server?.exited;
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('an MCP client connects through the sign-in and consent pages', () => {
  it('discovers, registers, is approved in Chromium, then works within its preset until disconnected', async () => {
    const mcpUrl = new URL('/mcp', server.url);
    const auth = new AgentAuth();
    const first = new Client({ name: 'desk-agent', version: '1.0.0' });
    // No token yet: the SDK follows /mcp's 401 to the metadata, registers, and asks for a redirect.
    await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth }))).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(auth.info?.client_id).toBeTruthy();
    expect(auth.authorizationUrl?.pathname).toBe('/oauth/authorize');
    expect(auth.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');

    const page = await browser.newPage({ javaScriptEnabled: false }); // the pages work without JavaScript
    await page.goto(auth.authorizationUrl!.href);
    await expect(page.locator('h1').textContent()).resolves.toBe('Sign in');
    expect(await page.content()).toContain('Desk Agent');
    await page.fill('#email', 'pat@example.com');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await expect(page.locator('h1').textContent()).resolves.toBe('Connect Desk Agent');
    // Each preset shows the operations it allows, grouped by tag, from the agent catalog.
    const operate = page.locator('label.choice', { hasText: 'Read and operate' });
    await expect(operate.locator('summary').textContent()).resolves.toMatch(/Operations it allows \(\d+\)/);
    expect(await operate.innerHTML()).toContain('POST /v1/ops/totes');
    expect(await operate.innerHTML()).not.toContain('POST /v1/ops/products');
    await operate.locator('input[type=radio]').check();
    await page.fill('#name', 'Claude on the packing desk');
    await screenshots(page, 'consent');
    await page.click('button[value=approve]');
    const back = await codes;
    expect(back.searchParams.get('state')).toBe(auth.sentState);
    await expect(page.locator('body').textContent()).resolves.toContain('You can close this window');

    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth });
    await transport.finishAuth(back.searchParams.get('code')!);
    expect(auth.saved?.access_token).toMatch(/^fosat_/);
    const agent = new Client({ name: 'desk-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth }));
    expect((await agent.listTools()).tools.map((t) => t.name).sort()).toEqual([
      'describe_svc_operation',
      'execute_svc_operation',
      'search_svc_operations',
    ]);
    const exec = async (args: Record<string, unknown>) =>
      ((await agent.callTool({ name: 'execute_svc_operation', arguments: args })) as { structuredContent: { status: number; body: any } })
        .structuredContent;
    expect((await exec({ operation_key: 'GET /v1/ops/orders', query: { limit: 5 } })).status).toBe(200);
    const unconfirmed = await agent.callTool({
      name: 'execute_svc_operation',
      arguments: { operation_key: 'POST /v1/ops/totes', body: { name: 'T-1' } },
    });
    expect(unconfirmed.isError).toBe(true);
    const tote = await exec({ operation_key: 'POST /v1/ops/totes', body: { name: 'T-1' }, confirm_write: true });
    expect(tote.status).toBe(201);
    expect((await exec({ operation_key: 'POST /v1/ops/products', body: { sku: 'A-1', name: 'Anvil' }, confirm_write: true })).status).toBe(
      403,
    );

    // The connection as the team's admins see it, through the CLI.
    const cli = { FOS_BASE_URL: server.url, FOS_API_KEY: apiKey };
    const [listed] = await ok(['mcp-connections', 'list', '--format', 'json'], undefined, cli);
    expect(listed).toMatchObject({
      name: 'Claude on the packing desk',
      client_name: 'Desk Agent',
      user_email: 'pat@example.com',
      preset: 'READ_AND_OPERATE',
      status: 'ACTIVE',
    });

    // The settings page: the person disconnects it; its tokens stop working at once.
    await page.goto(new URL('/oauth/connections', server.url).href);
    await screenshots(page, 'connections');
    const row = page.locator('tr', { hasText: 'Claude on the packing desk' });
    await expect(row.locator('td').nth(3).textContent()).resolves.toBe('ACTIVE');
    await row.locator('button', { hasText: 'Disconnect' }).click();
    await expect(page.locator('[role=status]').textContent()).resolves.toMatch(/Disconnected/);
    await expect(page.locator('tr', { hasText: 'Claude on the packing desk' }).locator('td').nth(3).textContent()).resolves.toBe('REVOKED');
    await expect(exec({ operation_key: 'GET /v1/ops/orders' })).rejects.toThrow();
    const [after] = await ok(['mcp-connections', 'list', '--format', 'json'], undefined, cli);
    expect(after.status).toBe('REVOKED');
    await agent.close().catch(() => undefined);
  }, 60_000);
});
