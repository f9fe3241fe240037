import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { testApp, type TestApp } from '../helpers/app.js';
import { VERSION } from '../../src/version.js';

// Issue 35 item 3: the address `fos serve` prints answers people and programs. `/` is a small
// HTML page (what this server is, links to the OpenAPI document, /floor and the docs), checked
// in a real headless Chromium; `/v1` is a JSON index; `/docs/<name>.md` serves the checkout's
// documentation as text. None needs a key.

const CHROMIUM = process.env.FOS_TEST_CHROMIUM ?? '/usr/bin/chromium';
let t: TestApp;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  t = await testApp({});
  origin = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the start page', () => {
  it('shows what the server is and links to the OpenAPI document, /floor and the docs (Chromium)', async () => {
    const page = await browser.newPage();
    try {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(`${m.text()} ${m.location().url}`));
      const res = await page.goto(`${origin}/`);
      expect(res!.status()).toBe(200);
      expect(await page.title()).toBe('fos — Fulfillment Operations API');
      await expect(page.locator('h1').textContent()).resolves.toBe('fos — Fulfillment Operations API');
      expect(await page.locator('body').textContent()).toContain(VERSION);
      const hrefs = await page.locator('a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      expect(hrefs).toEqual(
        expect.arrayContaining([`${origin}/v1/swagger.json`, `${origin}/v1`, `${origin}/floor`, `${origin}/docs/serve.md`]),
      );

      await page.click('a[href="/floor"]');
      expect(page.url()).toBe(`${origin}/floor`);
      await page.goBack();
      const [doc] = await Promise.all([page.waitForNavigation(), page.click('a[href="/docs/serve.md"]')]);
      expect(doc!.status()).toBe(200);
      expect(await page.locator('body').textContent()).toContain('# `fos serve`');
      await page.goBack();
      const [openapi] = await Promise.all([page.waitForNavigation(), page.click('a[href="/v1/swagger.json"]')]);
      expect(openapi!.status()).toBe(200);
      expect(JSON.parse((await page.locator('body').textContent())!).openapi).toMatch(/^3\./);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('/v1 is a JSON index, without a key', async () => {
    const res = await fetch(`${origin}/v1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      name: 'fos',
      description: 'Fulfillment Operations Public API (self-hosted: fos serve)',
      version: VERSION,
      base_url: `${origin}/v1`,
      authentication: 'an API key in the x-access-token header',
      links: {
        openapi: `${origin}/v1/swagger.json`,
        floor: `${origin}/floor`,
        mcp: `${origin}/mcp`,
        docs: `${origin}/docs/`,
        me: `${origin}/v1/me`,
        health: `${origin}/healthz`,
        ready: `${origin}/readyz`,
      },
    });
  });

  it('/docs lists and serves the documentation as text, and nothing outside it', async () => {
    const index = (await (await fetch(`${origin}/docs/`)).json()) as { docs: string[] };
    expect(index.docs).toContain(`${origin}/docs/api.md`);
    const api = await fetch(`${origin}/docs/api.md`);
    expect(api.status).toBe(200);
    expect(api.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    for (const p of ['/docs/..%2Fpackage.json', '/docs/nope.md', '/docs/API.md', '/docs/floor']) {
      const res = await fetch(`${origin}${p}`);
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });
});
