// Every command declares what it prints (src/cli/output/shape.ts), so no command can skip the
// check of its output options before it sends anything; and a command printing an API answer
// declares that route's own response schema (the one in src/contract the server answers with).
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/context.js';
import { testIOStreams } from '../../src/cli/iostreams.js';
import { buildProgram } from '../../src/cli/main.js';
import { fieldTree, outputOf, recordTree, type FieldNode } from '../../src/cli/output/shape.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { leaves } from './helpers/commands.js';

let t: TestApp;
let program: Command;
beforeAll(async () => {
  t = await testApp();
  program = await buildProgram(createContext({ io: testIOStreams(), env: {} }));
});
afterAll(() => t.close());

/** The tree's dotted paths (arrays transparent), `*` where anything may follow. */
function paths(node: FieldNode, prefix = '', depth = 0): string[] {
  const out = node.open ? [`${prefix}*`] : [];
  if (depth > 6) return out;
  for (const [k, v] of [...node.children].sort(([a], [b]) => a.localeCompare(b))) {
    out.push(prefix + k, ...paths(v, `${prefix}${k}.`, depth + 1));
  }
  return out;
}

type Doc = { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>> };

/** The OpenAPI document's schema with its $refs replaced by what they name. */
function deref(schema: unknown, doc: Doc & { components?: { schemas?: Record<string, unknown> } }, seen = 0): unknown {
  if (Array.isArray(schema)) return schema.map((s) => deref(s, doc, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string' && seen < 8) {
    const name = s.$ref.replace(/^#\/components\/schemas\//, '').replace(/#$/, '');
    return deref(doc.components?.schemas?.[name] ?? {}, doc, seen + 1);
  }
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, deref(v, doc, seen)]));
}

describe('declared output shapes', () => {
  it('every command of the tree declares one (so every command checks its output options first)', () => {
    const all = leaves(program);
    expect(all.length).toBeGreaterThan(150);
    const missing = all.filter((l) => !outputOf(l.cmd)).map((l) => l.name);
    expect(missing).toEqual([]);
  });

  it("a command printing an API answer declares the route's own response schema", async () => {
    const doc = t.app.swagger() as unknown as Doc;
    const routes = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        re: new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        op,
      })),
    );
    const checked: string[] = [];
    for (const { name, cmd } of leaves(program)) {
      const d = outputOf(cmd)!;
      if (!d.route) continue;
      // `locations create` answers another schema with --range (another route): both are checked.
      for (const opts of name === 'locations create' ? [{}, { range: 'A-01..A-02' }] : [{}]) {
        const url = `/v1${d.route.path(['a1', 'a2', 'a3', 'a4'], opts)}`.replace(/\?.*$/, '');
        const route = routes.find((r) => r.method === d.route!.method && r.re.test(url));
        expect(route, `${name}: ${d.route.method} ${url} is a route`).toBeDefined();
        const [status, answer] = Object.entries(route!.op.responses ?? {}).find(([s]) => /^2/.test(s))!;
        const schema = answer.content?.['application/json']?.schema;
        if (status === '204' || !schema) {
          expect(d.shape.kind, `${name} prints nothing`).toBe('none');
          continue;
        }
        expect(d.shape.kind, name).toBe('response');
        if (d.shape.kind !== 'response') continue;
        const declared = recordTree(await d.shape.load(opts));
        const served = d.route.list ? recordTree(deref(schema, doc)) : fieldTree(deref(schema, doc));
        expect(paths(declared), name).toEqual(paths(served));
        checked.push(name);
      }
    }
    expect(checked.length).toBeGreaterThan(120);
  });

  it('the members the API returns once are marked in the contract', async () => {
    const { secretPaths } = await import('../../src/cli/output/shape.js');
    const { CreatedKeySchema } = await import('../../src/contract/access.js');
    const { CreatedWebhookSchema } = await import('../../src/contract/webhooks.js');
    expect(secretPaths(fieldTree(CreatedKeySchema))).toEqual(['token']);
    expect(secretPaths(fieldTree(CreatedWebhookSchema))).toEqual(['secret']);
  });
});
