import type { Command } from 'commander';
import type { TSchema } from 'typebox';
import type { HttpMethod } from '../../client/types.js';

/**
 * What a command prints, declared with the command, so its output options (`--json` fields,
 * `--jq`, `--template`) are checked before anything is sent (precheck.ts, docs/cli.md "Output
 * options are checked first"). test/cli/output-shapes.test.ts walks the command tree: every
 * command declares one, and a `response` one is the route's own response schema.
 *   - response: the API's answer, described by its TypeBox schema in src/contract (loaded only
 *     when an output option needs it); a list prints the `data` records of its list schema.
 *   - none: the API answers no body (204); the command prints a line on stderr, so any `--json`
 *     field is unknown.
 *   - fixed: prints in one form of its own (a document's bytes, a stream of events): `--json`
 *     fields, `--jq` and `--template` are refused.
 *   - own: the command prints a record it makes (an import's summary, fulfill run's results) and
 *     checks `--json` against it itself before it sends anything (checkRecordFields).
 *   - local: sends nothing to the API (config, profiles, completion): its fields are checked
 *     against what it prints, as before; nothing can be half done.
 *   - any: prints whatever the server answers (`fos api`): fields cannot be known, are not checked,
 *     and a missing one prints as null.
 */
export type OutputShape =
  | { kind: 'response'; load: (opts: Record<string, unknown>) => Promise<TSchema> }
  | { kind: 'none' | 'fixed' | 'own' | 'local' | 'any'; why: string };

/** The request a helper-built command sends (for the test that ties its shape to the route). */
export interface OutputRoute {
  method: HttpMethod;
  path: (args: string[], opts: Record<string, unknown>) => string;
  list?: boolean;
}

export interface OutputDeclaration {
  shape: OutputShape;
  route?: OutputRoute;
}

const DECLARED = new WeakMap<Command, OutputDeclaration>();

/**
 * `output: response(async () => (await import('../../../contract/access.js')).CreatedKeySchema)`;
 * `opts` (the command's options) pick the schema where they pick the route (`locations create --range`).
 */
export const response = (load: (opts: Record<string, unknown>) => Promise<TSchema>): OutputShape => ({ kind: 'response', load });

export const none = (why: string): OutputShape => ({ kind: 'none', why });
export const fixed = (why: string): OutputShape => ({ kind: 'fixed', why });
export const own = (why: string): OutputShape => ({ kind: 'own', why });
export const local = (why: string): OutputShape => ({ kind: 'local', why });

export function declareOutput<C extends Command>(cmd: C, shape: OutputShape, route?: OutputRoute): C {
  DECLARED.set(cmd, { shape, route });
  return cmd;
}

export const outputOf = (cmd: Command): OutputDeclaration | undefined => DECLARED.get(cmd);

/**
 * The fields of a response, as a tree: `open` where any member may appear (a free-form object,
 * unknown), `secret` on a member the API returns only once (`x-shown-once` in the contract).
 * Arrays are transparent, as in `--json line_items.sku`.
 */
export interface FieldNode {
  open: boolean;
  secret: boolean;
  children: Map<string, FieldNode>;
}

type Json = Record<string, unknown>;

function mergeInto(into: FieldNode, from: FieldNode): FieldNode {
  into.open ||= from.open;
  into.secret ||= from.secret;
  for (const [k, v] of from.children) into.children.set(k, into.children.has(k) ? mergeInto(into.children.get(k)!, v) : v);
  return into;
}

export function fieldTree(schema: unknown): FieldNode {
  const s = (schema ?? {}) as Json;
  const node: FieldNode = { open: false, secret: s['x-shown-once'] === true, children: new Map() };
  for (const variant of [...((s.anyOf ?? s.oneOf ?? []) as unknown[]), ...((s.allOf ?? []) as unknown[])]) {
    mergeInto(node, fieldTree(variant));
  }
  if (s.items) mergeInto(node, fieldTree(s.items));
  if (s.properties) for (const [k, v] of Object.entries(s.properties as Json)) node.children.set(k, fieldTree(v));
  if (s.additionalProperties || s.patternProperties || s.$ref) node.open = true;
  // No type and no members: any value (Type.Unknown()).
  if (s.type === undefined && !s.properties && !s.items && !s.anyOf && !s.oneOf && !s.allOf && !s.enum && s.const === undefined) {
    node.open = true;
  }
  return node;
}

/** The records a command prints: a list's `data` items, else the response itself. */
export function recordTree(schema: unknown): FieldNode {
  const root = fieldTree(schema);
  const data = root.children.get('data');
  return data && root.children.has('meta') ? data : root;
}

/** The first segment of `path` the tree does not have, with the fields there are at that level. */
export function unknownAt(tree: FieldNode, path: string): { at: string; available: string[] } | undefined {
  let node = tree;
  const segments = path.split('.');
  for (let i = 0; i < segments.length; i++) {
    const child = node.children.get(segments[i]);
    if (child) {
      node = child;
      continue;
    }
    if (node.open) return undefined;
    return { at: segments.slice(0, i + 1).join('.'), available: [...node.children.keys()].sort() };
  }
  return undefined;
}

/** Dotted paths of the members returned only once. */
export function secretPaths(tree: FieldNode, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of tree.children) {
    const path = prefix + k;
    if (v.secret) out.push(path);
    out.push(...secretPaths(v, `${path}.`));
  }
  return out;
}
