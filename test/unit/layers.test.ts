import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/db/migrate.js';

// Calls go one way: cli -> client -> HTTP -> routes -> domain -> db, and the shapes both sides use
// live in src/contract (docs/architecture.md). These checks read the sources, so a new import
// across the line fails here rather than in review.

const src = path.join(packageRoot(), 'src');
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : /\.ts$/.test(n) ? [p] : [];
  });
const rel = (p: string) => path.relative(src, p).split(path.sep).join('/');

/** Every relative module a file imports (static, dynamic, re-exports), as a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => rel(path.resolve(path.dirname(file), s)));
}

function crossings(fromDir: string, forbidden: RegExp): string[] {
  return filesUnder(path.join(src, fromDir)).flatMap((f) =>
    importsOf(f)
      .filter((i) => forbidden.test(i))
      .map((i) => `${rel(f)} -> ${i}`),
  );
}

describe('layers', () => {
  test('the CLI imports nothing from the server or the domain (shapes come from src/contract)', () => {
    expect(crossings('cli', /^(server|domain)\//)).toEqual([]);
    expect(crossings('client', /^(server|domain|cli)\//)).toEqual([]);
  });

  test('the contract imports nothing from the server, the domain or the CLI (so the CLI reaches neither through it)', () => {
    expect(crossings('contract', /^(server|domain|cli|db)\//)).toEqual([]);
  });

  test('the server imports nothing from the CLI', () => {
    // Known exception: the first `fos serve` saves its bootstrap key as the CLI's `local` profile.
    expect(crossings('server', /^cli\//)).toEqual(['server/serve-command.ts -> cli/config.js']);
  });

  test('the domain imports nothing from the server or the CLI', () => {
    expect(crossings('domain', /^(server|cli)\//)).toEqual([]);
  });

  // Provider differences belong to src/db and the areas' stores (src/domain/<area>/store.ts or
  // queries/). KNOWN lists the files that still branch on the provider themselves, to be moved
  // into stores (issue 24, item 1); the list may only shrink.
  const KNOWN = [];
  test('raw SQL in the domain lives only in the stores', () => {
    const raw = filesUnder(path.join(src, 'domain'))
      .filter((f) => !/\/(store\.ts|store\/|queries\/)/.test(f))
      .filter((f) => /\$(query|execute)Raw/.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(raw).toEqual([]);
  });

  // Each area's database access lives in its store (src/domain/<area>/store.ts or store/): Prisma
  // calls and prepared statements alike, named for what they read or write; the rules files call
  // the store (issue 38, item 4). A call is any receiver's model delegate (the models named in
  // prisma/schema.prisma, whatever the client's variable is called) or `.prisma.` itself.
  const MODELS = [...readFileSync(path.join(packageRoot(), 'prisma', 'schema.prisma'), 'utf8').matchAll(/^model (\w+)/gm)].map(
    (m) => m[1]![0]!.toLowerCase() + m[1]!.slice(1),
  );
  const PRISMA_CALL = new RegExp(
    `\\.prisma\\s*[.[]|\\.\\s*(${MODELS.join('|')})\\s*\\.\\s*(find|create|update|delete|upsert|count|aggregate|groupBy)\\w*\\(`,
  );
  test('Prisma calls in the domain live only in the stores (issue 38)', () => {
    const calling = filesUnder(path.join(src, 'domain'))
      .filter((f) => !/\/(store\.ts|store\/|queries\/)/.test(f))
      .filter((f) => PRISMA_CALL.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(calling).toEqual([]);
  });

  test('routes make no Prisma call: a route calls the domain, which calls its store', () => {
    const calling = filesUnder(path.join(src, 'server', 'routes'))
      .filter((f) => PRISMA_CALL.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(calling).toEqual([]);
  });

  test('the Prisma pattern sees the calls it forbids', () => {
    expect(MODELS).toContain('pickScan');
    for (const call of [
      'db.prisma.order.findMany({',
      'await tx.package.updateMany({',
      'client.shop.findUnique(',
      'tx.pickScan\n      .groupBy({',
      'prisma.rateCard.findFirst({',
      'db.prisma[table]',
    ])
      expect(PRISMA_CALL.test(call), call).toBe(true);
    expect(PRISMA_CALL.test('store.findOrders(db.prisma, teamId)')).toBe(false);
    expect(PRISMA_CALL.test('this.cache.delete(hash)')).toBe(false);
  });

  test('every transaction of the domain is the one retrying transaction (src/db/tx.ts), never a bare $transaction', () => {
    // A bare one skips SQLite's BEGIN IMMEDIATE (SQLITE_BUSY under concurrent writers) and the retry of deadlocks.
    const bare = filesUnder(path.join(src, 'domain'))
      .filter((f) => /\$transaction\(/.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(bare).toEqual([]);
  });

  test('no provider branch in the domain outside the stores, beyond the known ones', () => {
    const branching = filesUnder(path.join(src, 'domain'))
      .filter((f) => !/\/(store\.ts|store\/|queries\/)/.test(f))
      .filter((f) => /provider\s*[!=]==/.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(branching.filter((f) => !KNOWN.includes(f))).toEqual([]);
  });

  test('the fulfillment area branches on the provider only in its store', () => {
    // Its SQL and dialect live in src/domain/fulfillment/store/ and src/db/dialect.ts (issue 24).
    const branching = filesUnder(path.join(src, 'domain/fulfillment'))
      .filter((f) => !f.includes('/fulfillment/store/'))
      .filter((f) => /provider\s*[!=]==/.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(branching).toEqual([]);
  });

  // Sales channels are reached through one connector shape (src/connectors/channels/connector.ts)
  // from the registry keyed by shop type: no code outside src/connectors branches on a platform's
  // name (issue 39). MANUAL is no platform; comparing two shop types (reach.ts) is no branch.
  const PLATFORMS = 'SHOPIFY|WOOCOMMERCE|BIGCOMMERCE|AMAZON|EBAY|ETSY';
  const PLATFORM = new RegExp(
    `\\bshop_type\\s*[!=]==\\s*'|[!=]==\\s*'(${PLATFORMS})'|'(${PLATFORMS})'\\s*[!=]==|case\\s+'(${PLATFORMS})'|\\bshop_type:\\s*(\\{\\s*in:\\s*\\[\\s*)?'(${PLATFORMS})'`,
  );
  test('no platform branch outside src/connectors', () => {
    const branching = filesUnder(src)
      .filter((f) => !/\/src\/(connectors|generated)\//.test(f.split(path.sep).join('/')))
      .filter((f) => PLATFORM.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(branching).toEqual([]);
  });

  test('the platform pattern sees the branches it forbids', () => {
    for (const branch of [
      "if (shop.shop_type === 'SHOPIFY') return x;",
      "const e = 'EBAY' !== type;",
      "case 'AMAZON':",
      "where: { shop_type: 'ETSY', active: true }",
      "where: { shop_type: { in: ['BIGCOMMERCE'] } }",
    ])
      expect(PLATFORM.test(branch), branch).toBe(true);
    // Comparing two shop types (orders/reach.ts) and MANUAL, which is no platform, are no branch.
    expect(PLATFORM.test('shop.shop_type !== shopType')).toBe(false);
    expect(PLATFORM.test("type === 'MANUAL'")).toBe(false);
  });

  test('the connectors are reached through the registry: the domain imports no platform folder', () => {
    expect(crossings('domain', /^connectors\/channels\/(?!registry|connector|types|http)[^/]+\//)).toEqual([]);
    expect(crossings('connectors', /^(server|cli)\//)).toEqual([]);
  });

  // Carriers likewise (src/connectors/carriers/connector.ts, registry keyed by the carrier
  // integration type): no code outside src/connectors compares a type, platform or carrier with a
  // carrier's name, nor filters integrations by one (issue 39). Carrier ids inside data (rate
  // rows, tracking page templates) are no branch.
  const CARRIER_NAMES = 'EASYPOST|SHIPPO|TABLE|easypost|shippo|EasyPost|Shippo|USPS|usps|UPS|ups|FEDEX|FedEx|fedex|DHL|dhl';
  const CARRIER = new RegExp(
    `[!=]==\\s*'(${CARRIER_NAMES})'|'(${CARRIER_NAMES})'\\s*[!=]==|case\\s+'(${CARRIER_NAMES})'|\\btype:\\s*(\\{\\s*in:\\s*\\[\\s*)?'(EASYPOST|SHIPPO|TABLE)'`,
  );
  test('no carrier branch outside src/connectors', () => {
    const branching = filesUnder(src)
      .filter((f) => !/\/src\/(connectors|generated)\//.test(f.split(path.sep).join('/')))
      .filter((f) => CARRIER.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(branching).toEqual([]);
  });

  test('the carrier pattern sees the branches it forbids', () => {
    for (const branch of [
      "if (row.type === 'EASYPOST') return x;",
      "const p = 'SHIPPO' !== t;",
      "case 'TABLE':",
      "where: { type: 'EASYPOST', enabled: true }",
      "carrier_id === 'usps'",
    ])
      expect(CARRIER.test(branch), branch).toBe(true);
    expect(CARRIER.test("format === 'table'")).toBe(false);
  });

  test('carriers are reached through the registry: the domain imports no carrier folder and no carrier SDK', () => {
    expect(crossings('domain', /^connectors\/carriers\/[^/]+\//)).toEqual([]);
    const sdk = filesUnder(src)
      .filter((f) => !/\/src\/(connectors|generated)\//.test(f.split(path.sep).join('/')))
      .filter((f) => /(from|require\()\s*'(@easypost\/api|shippo)(\/[^']*)?'/.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(sdk).toEqual([]);
  });

  test('each domain area is entered by its door: code outside src/domain/<area>/ imports only its index.ts', () => {
    const areaOf = (p: string) => /^domain\/([^/]+)\//.exec(p)?.[1] ?? null;
    const areas = new Set(
      filesUnder(path.join(src, 'domain'))
        .map((f) => areaOf(rel(f)))
        .filter(Boolean),
    );
    const sideDoors = filesUnder(src).flatMap((f) =>
      importsOf(f)
        .filter((i) => {
          const to = areaOf(i);
          return to !== null && areas.has(to) && to !== areaOf(rel(f)) && !/^domain\/[^/]+\/index\.js$/.test(i);
        })
        .map((i) => `${rel(f)} -> ${i}`),
    );
    expect(sideDoors).toEqual([]);
  });

  test('the areas import each other without a loop (lower areas announce through hooks: src/domain/hooks.ts)', () => {
    const graph = areaGraph();
    // Depth-first search for a back edge; the loop found is printed as a path.
    const state = new Map<string, 'open' | 'done'>();
    const loops: string[] = [];
    const visit = (a: string, trail: string[]) => {
      state.set(a, 'open');
      for (const b of graph.get(a) ?? []) {
        if (state.get(b) === 'open') loops.push([...trail.slice(trail.indexOf(b)), b].join(' -> '));
        else if (!state.has(b)) visit(b, [...trail, b]);
      }
      state.set(a, 'done');
    };
    for (const a of [...graph.keys()].sort()) if (!state.has(a)) visit(a, [a]);
    expect(loops).toEqual([]);
  });

  test('docs/architecture.md lists every area, lowest first: each imports only areas listed before it', () => {
    const doc = readFileSync(path.join(packageRoot(), 'docs/architecture.md'), 'utf8');
    const section = doc.split('## Areas (lowest first)')[1]!.split('\n## ')[0]!;
    const listed = section
      .split('\n')
      .filter((l) => /^- [a-z ]+: `/.test(l))
      .flatMap((l) => [...l.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!));
    const graph = areaGraph();
    expect([...listed].sort()).toEqual([...graph.keys()].sort());
    const upward = listed.flatMap((a, i) => [...graph.get(a)!].filter((b) => listed.indexOf(b) > i).map((b) => `${a} -> ${b}`));
    expect(upward).toEqual([]);
  });

  test('the loop check sees a loop', () => {
    const graph = areaGraph();
    expect(graph.get('orders')?.has('inventory')).toBe(true); // orders allocate stock
    expect(graph.get('inventory')?.has('orders')).toBe(false); // the ledger announces freed stock instead
  });
});

/** Which areas each area imports (type imports too), from the sources: area -> areas. */
function areaGraph(): Map<string, Set<string>> {
  const areaOf = (p: string) => /^domain\/([^/]+)\//.exec(p)?.[1] ?? null;
  const graph = new Map<string, Set<string>>();
  for (const f of filesUnder(path.join(src, 'domain'))) {
    const from = areaOf(rel(f));
    if (!from) continue;
    const to = graph.get(from) ?? new Set<string>();
    for (const i of importsOf(f)) {
      const a = areaOf(i);
      if (a && a !== from) to.add(a);
    }
    graph.set(from, to);
  }
  return graph;
}
