import { describe, expect, it } from 'vitest';
import { createContext, type GlobalOptions } from '../../src/cli/context.js';
import { testIOStreams } from '../../src/cli/iostreams.js';
import { csvCell, csvLine } from '../../src/shared/csv.js';
import { getPath, parseFields, pickFields } from '../../src/cli/output/fields.js';
import { printList, printRecord, printResult } from '../../src/cli/output/print.js';
import { cellText } from '../../src/cli/output/table.js';
import { tempConfigDir } from './helpers/cli.js';

const products = [
  { id: 'p1', sku: 'MUG', name: 'Blue mug', type: 'STANDARD', available: 4, config: { incoterm: 'FAS', level: 1 }, tags: ['a', 'b'] },
  { id: 'p2', sku: 'CUP', name: 'Cup, "large"', type: 'STANDARD', available: 0, config: { incoterm: null, level: 2 }, tags: [] },
];

async function setup(opts: { tty: boolean; options?: GlobalOptions; width?: number }) {
  const io = testIOStreams({ tty: opts.tty, width: opts.width });
  const ctx = createContext({ io, env: { FOS_CONFIG_DIR: await tempConfigDir() } });
  ctx.options = opts.options ?? {};
  return { ctx, io };
}

async function* slowly<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) {
    await new Promise((r) => setTimeout(r, 1));
    yield item;
  }
}

describe('format selection by TTY', () => {
  it('prints a table on a terminal, with the preferred columns that exist', async () => {
    const { ctx, io } = await setup({ tty: true });
    await printList(ctx, products, { columns: ['id', 'sku', 'name', 'missing_column', 'available'] });
    const lines = io.stdoutText().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+SKU\s+NAME\s+AVAILABLE$/);
    expect(lines[1]).toMatch(/^p1\s+MUG\s+Blue mug\s+4$/);
    expect(lines).toHaveLength(3);
    expect(io.stdoutText()).not.toContain('meta');
  });

  it('prints the JSON array of records (not the envelope) when piped', async () => {
    const { ctx, io } = await setup({ tty: false });
    await printList(ctx, products, { columns: ['id'] });
    expect(JSON.parse(io.stdoutText())).toEqual(products);
  });

  it('--json forces JSON on a terminal, --format wins over --json', async () => {
    const a = await setup({ tty: true, options: { json: true } });
    await printList(a.ctx, products);
    expect(JSON.parse(a.io.stdoutText())).toEqual(products);

    const b = await setup({ tty: true, options: { json: 'id', format: 'csv' } });
    await printList(b.ctx, products);
    expect(b.io.stdoutText()).toBe('id\np1\np2\n');
  });

  it('uses default_format from the config on a terminal only', async () => {
    const { ctx, io } = await setup({ tty: true });
    (await ctx.config.load()).setDefaultFormat('ndjson');
    await printList(ctx, products);
    expect(
      io
        .stdoutText()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(products);

    const piped = createContext({ io: testIOStreams({ tty: false }), env: ctx.env });
    await printList(piped, products);
    expect(JSON.parse((piped.io as ReturnType<typeof testIOStreams>).stdoutText())).toEqual(products);
  });

  it('prints a record as FIELD/VALUE lines on a terminal and as an object when piped', async () => {
    const t = await setup({ tty: true });
    await printRecord(t.ctx, products[0]);
    expect(t.io.stdoutText()).toMatch(/^id\s+p1$/m);
    expect(t.io.stdoutText()).toMatch(/^tags\s+a, b$/m);
    expect(t.io.stdoutText()).toMatch(/^config\s+\{"incoterm":"FAS","level":1\}$/m);

    const p = await setup({ tty: false });
    await printResult(p.ctx, products[0]);
    expect(JSON.parse(p.io.stdoutText())).toEqual(products[0]);
  });

  it('says "no records" on stderr for an empty table and prints [] as JSON', async () => {
    const t = await setup({ tty: true });
    expect(await printList(t.ctx, [])).toBe(0);
    expect(t.io.stdoutText()).toBe('');
    expect(t.io.stderrText()).toContain('no records');

    const p = await setup({ tty: false });
    await printList(p.ctx, []);
    expect(p.io.stdoutText()).toBe('[]\n');
  });

  it('uses no colour codes unless colour is enabled', async () => {
    const plain = await setup({ tty: true });
    await printList(plain.ctx, products);
    expect(plain.io.stdoutText()).not.toMatch(/\u001b\[/);

    const io = testIOStreams({ tty: true, color: true });
    const ctx = createContext({ io, env: plain.ctx.env });
    await printList(ctx, products);
    expect(io.stdoutText()).toMatch(/\u001b\[1mID/);
  });
});

describe('field selection', () => {
  it('parses comma-separated fields and rejects junk', () => {
    expect(parseFields(' id, name ,config.incoterm')).toEqual(['id', 'name', 'config.incoterm']);
    expect(() => parseFields('id,na me')).toThrow(/invalid field/);
    expect(() => parseFields(',')).toThrow(/empty/);
  });

  it('picks nested paths, keeps the shape, maps arrays, fills missing with null', () => {
    const rec = {
      id: 1,
      config: { incoterm: 'FAS', x: 2 },
      items: [
        { sku: 'A', q: 1, z: 0 },
        { sku: 'B', q: 2 },
      ],
    };
    expect(pickFields(rec, ['id', 'config.incoterm', 'items.sku', 'items.q', 'nope'])).toEqual({
      id: 1,
      config: { incoterm: 'FAS' },
      items: [
        { sku: 'A', q: 1 },
        { sku: 'B', q: 2 },
      ],
      nope: null,
    });
    expect(getPath(rec, 'items.sku')).toEqual(['A', 'B']);
    expect(getPath(rec, 'config.missing')).toBeUndefined();
  });

  it('applies --json fields to lists and records', async () => {
    const { ctx, io } = await setup({ tty: false, options: { json: 'id,config.incoterm' } });
    await printList(ctx, products);
    expect(JSON.parse(io.stdoutText())).toEqual([
      { id: 'p1', config: { incoterm: 'FAS' } },
      { id: 'p2', config: { incoterm: null } },
    ]);
    const t = await setup({ tty: true, options: { json: 'sku', format: 'table' } });
    await printRecord(t.ctx, products[0]);
    expect(t.io.stdoutText().trim()).toMatch(/^sku\s+MUG$/);
  });
});

describe('csv', () => {
  it('quotes commas, quotes, newlines and edge spaces; JSON for objects', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12.5)).toBe('12.5');
    expect(csvCell(false)).toBe('false');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
    expect(csvLine(['x', 'y,z'])).toBe('x,"y,z"\n');
  });

  it('neutralises formula cells (=, +, -, @, tab, CR) with a leading quote, as OWASP recommends', async () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell('+1+1')).toBe('"\'+1+1"');
    expect(csvCell('-2+3')).toBe('"\'-2+3"');
    expect(csvCell('@SUM(A1)')).toBe('"\'@SUM(A1)"');
    expect(csvCell('\t=1')).toBe('"\'\t=1"');
    expect(csvCell('\r=1')).toBe('"\'\r=1"');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('a=b')).toBe('a=b');
    const { ctx, io } = await setup({ tty: false, options: { format: 'csv' } });
    await printList(ctx, [{ name: '=cmd|calc' }]);
    expect(io.stdoutText()).toBe('name\n"\'=cmd|calc"\n');
  });

  it('writes a header row and one row per record (union of keys for arrays)', async () => {
    const { ctx, io } = await setup({ tty: false, options: { format: 'csv' } });
    await printList(ctx, [
      { id: 1, name: 'Cup, "large"' },
      { id: 2, extra: true },
    ]);
    expect(io.stdoutText()).toBe('id,name,extra\n1,"Cup, ""large""",\n2,,true\n');
  });

  it("streams from an iterator with the first record's columns or the selected fields", async () => {
    const { ctx, io } = await setup({ tty: false, options: { format: 'csv', json: 'id,config.level' } });
    expect(await printList(ctx, slowly(products))).toBe(2);
    expect(io.stdoutText()).toBe('id,config.level\np1,1\np2,2\n');
  });

  it('prints a record as header + one row', async () => {
    const { ctx, io } = await setup({ tty: false, options: { format: 'csv', json: 'id,name' } });
    await printRecord(ctx, products[1]);
    expect(io.stdoutText()).toBe('id,name\np2,"Cup, ""large"""\n');
  });
});

describe('streaming', () => {
  it('ndjson writes one compact record per line as they arrive', async () => {
    const { ctx, io } = await setup({ tty: true, options: { format: 'ndjson' } });
    const seen: string[] = [];
    async function* watched() {
      for await (const p of slowly(products)) {
        seen.push(io.stdoutText());
        yield p;
      }
    }
    await printList(ctx, watched());
    expect(seen[1]).toBe(`${JSON.stringify(products[0])}\n`); // first line out before the second record
    expect(io.stdoutText()).toBe(products.map((p) => `${JSON.stringify(p)}\n`).join(''));
  });

  it('a streamed JSON array is byte-identical to JSON.stringify(array, null, 2)', async () => {
    const { ctx, io } = await setup({ tty: false });
    await printList(ctx, slowly(products));
    expect(io.stdoutText()).toBe(`${JSON.stringify(products, null, 2)}\n`);
  });
});

describe('table cells', () => {
  it('joins scalar arrays, counts object arrays, truncates long text, flattens newlines', () => {
    expect(cellText(['a', 1])).toBe('a, 1');
    expect(cellText([{ a: 1 }, { b: 2 }])).toBe('[2 items]');
    expect(cellText('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(cellText('a\nb')).toBe('a b');
    expect(cellText(null)).toBe('');
  });
});
