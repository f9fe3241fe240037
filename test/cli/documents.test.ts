import { chmod, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { runCli } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';

// Printable documents through the real command tree against a real server: `packages label
// --output/--print`, `packages get-label`, `packages slip [--with-label]`, and `fulfill run
// --print-dir`. Printing goes through FOS_PRINT_COMMAND, here a script that keeps what it reads.

let t: TestApp;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  let token: string;
  ({ t, token, env } = await cliServer());
  dir = await mkdtemp(path.join(tmpdir(), 'fos-docs-'));
  const printer = path.join(dir, 'print.sh');
  await writeFile(printer, '#!/bin/sh\ncat > "$PRINT_OUT/$FOS_DOCUMENT_NAME"\necho "$FOS_PRINTER" > "$PRINT_OUT/printer.txt"\n');
  await chmod(printer, 0o755);
  env = { ...env, FOS_PRINT_COMMAND: printer, PRINT_OUT: dir };
  const rate = await t.call('POST', '/v1/ops/carrier-rates', {
    token,
    body: {
      carrier_id: 'ups',
      carrier_name: 'UPS',
      service_id: 'ground',
      service_name: 'Ground',
      amount: 5,
      per_unit_weight: 0.001,
      weight_unit: 'G',
      estimated_days: 3,
    },
  });
  expect(rate.statusCode, rate.body).toBe(201);
});
afterAll(() => t?.close());

const fos = (...args: string[]) => runCli(args, { env });

async function newPackage() {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
  const r = await fos(
    'packages',
    'create',
    '--fulfillment-order',
    f.fo.id,
    '--weight',
    '700',
    '--weight-unit',
    'G',
    '--item',
    `sku=${f.foLines[0].sku},quantity=1`,
  );
  expect(r.code, r.stderr).toBe(0);
  return { f, id: JSON.parse(r.stdout).id as string };
}

const pages = async (bytes: Buffer) => (await PDFDocument.load(bytes)).getPages().map((p) => p.getSize());
const LABEL = { width: 288, height: 432 };
const LETTER = { width: 612, height: 792 };

describe('fos packages: printable documents', () => {
  it('label --rate-strategy CHEAPEST --output saves the bought label as it prints the package', async () => {
    const { id } = await newPackage();
    const file = path.join(dir, 'out', 'label.pdf');
    const r = await fos('packages', 'label', id, '--rate-strategy', 'CHEAPEST', '--output', file);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id, shipment_status: 'LABEL_PRINTED' });
    expect(r.stderr).toContain(`saved ${file}`);
    expect(await pages(await readFile(file))).toEqual([LABEL]);
  });

  it('label --label-format ZPL --print hands ZPL to the print command, with the printer named', async () => {
    const { id } = await newPackage();
    const r = await fos('packages', 'label', id, '--rate-strategy', 'CHEAPEST', '--label-format', 'zpl', '--print', '--printer', 'zebra-1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`sent label-${id}.zpl to zebra-1`);
    const zpl = await readFile(path.join(dir, `label-${id}.zpl`), 'utf8');
    expect(zpl.startsWith('^XA')).toBe(true);
    expect((await readFile(path.join(dir, 'printer.txt'), 'utf8')).trim()).toBe('zebra-1');
  });

  it('get-label writes the document to a pipe, refuses a terminal, and 404s without a label', async () => {
    const { id } = await newPackage();
    const none = await fos('packages', 'get-label', id);
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('no shipping label');
    expect((await fos('packages', 'label', id, '--rate-strategy', 'CHEAPEST')).code).toBe(0);
    const piped = await fos('packages', 'get-label', id);
    expect(piped.code, piped.stderr).toBe(0);
    expect(await pages(piped.stdoutBytes)).toEqual([LABEL]);
    const zpl = await fos('packages', 'get-label', id, '--label-format', 'zpl');
    expect(zpl.stdout.slice(0, 200) + zpl.stderr).toMatch(/^\^XA/);
    const ttyZpl = await runCli(['packages', 'get-label', id, '--label-format', 'zpl'], { env, stdoutTTY: true });
    expect(ttyZpl.stdout.startsWith('^XA')).toBe(true); // text may go to a terminal
    const tty = await runCli(['packages', 'get-label', id], { env, stdoutTTY: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toContain('is a PDF document: pass --output <file> or --print');
    expect(tty.stdoutBytes.length).toBe(0);
    const mixed = await fos('packages', 'label', id, '--rate-strategy', 'CHEAPEST', '--output', '-');
    expect(mixed.code).toBe(2);
  });

  it('slip saves the packing slip; --with-label puts the label page first', async () => {
    const { id } = await newPackage();
    const slip = path.join(dir, 'slip.pdf');
    const r = await fos('packages', 'slip', id.slice(0, 28), '--output', slip); // a short id, as tables show it
    expect(r.code, r.stderr).toBe(0);
    expect(await pages(await readFile(slip))).toEqual([LETTER]);
    const early = await fos('packages', 'slip', id, '--with-label');
    expect(early.code).toBe(4); // not labelled yet
    expect((await fos('packages', 'label', id, '--rate-strategy', 'CHEAPEST')).code).toBe(0);
    const both = await fos('packages', 'slip', id, '--with-label');
    expect(both.code, both.stderr).toBe(0);
    expect(await pages(both.stdoutBytes)).toEqual([LABEL, LETTER]);
    expect(both.stderr).toContain('each page keeps its own size');
  });

  it('an uploaded label is fetched from its own URL, without the API key', async () => {
    const seen: Record<string, string | undefined> = {};
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      seen.key = req.headers['x-access-token'] as string | undefined;
      seen.path = req.url;
      res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 uploaded');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const { id } = await newPackage();
      const up = await fos(
        'packages',
        'label',
        id,
        '--label-url',
        `http://127.0.0.1:${port}/labels/x.pdf`,
        '--tracking-number',
        '1Z1',
        '--carrier',
        'UPS',
        '--service',
        'Ground',
        '--cost',
        '4',
        '--cost-currency',
        'USD',
      );
      expect(up.code, up.stderr).toBe(0);
      const r = await fos('packages', 'get-label', id);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('%PDF-1.4 uploaded');
      expect(seen).toEqual({ key: undefined, path: '/labels/x.pdf' });
    } finally {
      server.close();
    }
  });
});

describe('fos fulfill run --print-dir', () => {
  it('saves each bought label as <order number>-label-<package id> and reports it', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const out = path.join(dir, 'labels');
    const r = await fos('fulfill', 'run', f.fo.id, '--rate-strategy', 'CHEAPEST', '--print-dir', out);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout.trim());
    expect(result).toMatchObject({ status: 'fulfilled' });
    const files = await readdir(out);
    // Named for the order number as people write it, without its `#` (issue 22 item 5).
    expect(files).toEqual([`${f.order.order_number.replace(/^#/, '')}-label-${result.package_id}.pdf`]);
    expect(files[0]).toMatch(/^[\w-]+-label-[0-9a-f-]{36}\.pdf$/);
    expect(result.label_file).toBe(path.join(out, files[0]));
    expect(await pages(await readFile(result.label_file))).toEqual([LABEL]);
  });

  it('--label-format is refused with an uploaded label', async () => {
    const r = await fos(
      'fulfill',
      'run',
      'x',
      '--label-url',
      'https://l.example/1.pdf',
      '--tracking',
      '1',
      '--carrier',
      'UPS',
      '--service',
      'G',
      '--cost',
      '1',
      '--label-format',
      'ZPL',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--label-format is for bought labels');
  });
});

describe('fos scan-forms', () => {
  it("create gathers the day's labels and saves the manifest; list, get, manifest and packages --scan-form", async () => {
    const { id } = await newPackage();
    expect((await fos('packages', 'label', id, '--rate-strategy', 'CHEAPEST')).code).toBe(0);
    const warehouse = (await t.db.prisma.package.findUniqueOrThrow({ where: { id } })).warehouse_id!;
    const file = path.join(dir, 'manifest.pdf');
    const r = await fos('scan-forms', 'create', '--warehouse', warehouse, '--carrier', 'ups', '--output', file);
    expect(r.code, r.stderr).toBe(0);
    const form = JSON.parse(r.stdout);
    expect(form).toMatchObject({ carrier_id: 'ups', scan_status: 'SCANNED' });
    expect(form.package_count).toBeGreaterThanOrEqual(1);
    expect(await pages(await readFile(file))).toEqual([LETTER]);
    const on = await fos('packages', 'list', '--scan-form', form.id, '--json', 'id');
    expect(JSON.parse(on.stdout)).toContainEqual({ id });
    expect(JSON.parse((await fos('scan-forms', 'get', form.id)).stdout)).toEqual(form);
    expect(JSON.parse((await fos('scan-forms', 'list', '--carrier', 'ups')).stdout)[0]).toEqual(form);
    const pdf = await fos('scan-forms', 'manifest', form.id);
    expect(await pages(pdf.stdoutBytes)).toEqual([LETTER]);
    const none = await fos('scan-forms', 'create', '--warehouse', warehouse, '--carrier', 'ups');
    expect(none.code).toBe(5);
  });
});
