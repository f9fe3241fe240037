// The public operation catalog the agent tools search, describe and execute. It is read from the
// live OpenAPI document (app.swagger()), which @fastify/swagger generates from the same route
// schemas that validate requests, so the catalog can never drift from what the API accepts.

export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
// Not operations an agent should run through execute: itself and the OpenAPI document.
const EXCLUDED_PATHS = new Set(['/mcp', '/v1/swagger.json']);

type Json = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Json;
}

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  'x-permission'?: string | null;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
}

export interface OpenApiDocument {
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], OpenApiOperation>>>;
  components?: { schemas?: Record<string, Json> };
}

export interface Operation {
  /** Stable key: `METHOD /path-template`, e.g. `GET /v1/ops/products/{product_id}`. */
  key: string;
  method: string;
  path: string;
  operationId: string | null;
  summary: string;
  description: string;
  tags: string[];
  /** Permission the operation requires; null = any valid key. */
  permission: string | null;
  write: boolean;
  spec: OpenApiOperation;
  /** Lower-case words per field, for search. */
  words: Record<Field, string[]>;
}

export interface Catalog {
  operations: Operation[];
  byKey: Map<string, Operation>;
  schemas: Record<string, Json>;
}

type Field = 'method' | 'operationId' | 'summary' | 'path' | 'tags' | 'permission' | 'description';
const WEIGHTS: Record<Field, number> = {
  method: 2,
  operationId: 3,
  summary: 3,
  path: 2,
  tags: 2,
  permission: 1,
  description: 1,
};
// What people call a method when they describe a capability.
const METHOD_WORDS: Record<string, string[]> = {
  GET: ['get', 'list', 'read', 'show', 'fetch', 'find', 'view'],
  POST: ['post', 'create', 'add', 'new', 'make'],
  PUT: ['put', 'set', 'replace', 'assign', 'update'],
  PATCH: ['patch', 'update', 'edit', 'modify', 'change'],
  DELETE: ['delete', 'remove', 'destroy'],
};
const STOP_WORDS = new Set(['a', 'an', 'the', 'of', 'for', 'to', 'by', 'and', 'or', 'in', 'on', 'with', 'my', 'all', 'v1']);

/** Splits camelCase, snake_case, kebab-case and paths into lower-case words. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !STOP_WORDS.has(w));
}

/** `get  /v1/me` -> `GET /v1/me`; tolerant of case and spacing, nothing else. */
export function normalizeKey(key: string): string {
  const [method = '', ...rest] = key.trim().split(/\s+/);
  return `${method.toUpperCase()} ${rest.join('')}`;
}

export function buildCatalog(doc: OpenApiDocument): Catalog {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    // Exports stream unbounded NDJSON/CSV: an agent pages the list instead.
    if (EXCLUDED_PATHS.has(path) || path.endsWith('/export')) continue;
    for (const m of METHODS) {
      const spec = item[m];
      if (!spec) continue;
      const method = m.toUpperCase();
      const op: Omit<Operation, 'words'> = {
        key: `${method} ${path}`,
        method,
        path,
        operationId: spec.operationId ?? null,
        summary: spec.summary ?? '',
        description: spec.description ?? '',
        tags: spec.tags ?? [],
        permission: spec['x-permission'] ?? null,
        write: WRITE_METHODS.has(method),
        spec,
      };
      operations.push({
        ...op,
        words: {
          method: METHOD_WORDS[method] ?? [method.toLowerCase()],
          operationId: wordsOf(op.operationId ?? ''),
          summary: wordsOf(op.summary),
          path: wordsOf(path),
          tags: op.tags.flatMap(wordsOf),
          permission: wordsOf(op.permission ?? ''),
          description: wordsOf(op.description),
        },
      });
    }
  }
  operations.sort((a, b) => a.key.localeCompare(b.key));
  return { operations, byKey: new Map(operations.map((o) => [o.key, o])), schemas: doc.components?.schemas ?? {} };
}

// Exact word: full weight; one word a prefix of the other (order/orders, product/products): most of it.
function termScore(term: string, words: string[]): number {
  let best = 0;
  for (const w of words) {
    if (w === term) return 1;
    if (term.length >= 3 && w.length >= 3 && (w.startsWith(term) || term.startsWith(w))) best = 0.75;
  }
  return best;
}

const VERBS = new Set(Object.values(METHOD_WORDS).flat());

function termTotal(op: Operation, term: string): number {
  let s = 0;
  for (const field of Object.keys(WEIGHTS) as Field[]) s += WEIGHTS[field] * termScore(term, op.words[field]);
  return s;
}

function score(op: Operation, terms: string[], pathFragment: string | null, exactKey: string): number {
  if (op.key === exactKey) return 1000;
  // Verbs (list, create, update…) only rank what a noun matched: "list products" must not
  // return every list operation when no product operation exists.
  const nouns = terms.filter((t) => !VERBS.has(t));
  let total = 0;
  let matched = 0;
  let nounScore = 0;
  for (const term of terms) {
    const s = termTotal(op, term);
    if (s > 0) matched += 1;
    if (!VERBS.has(term)) nounScore += s;
    total += s;
  }
  if (pathFragment && op.path.toLowerCase().includes(pathFragment)) {
    const bonus = op.path.toLowerCase() === pathFragment ? 12 : 6;
    total += bonus;
    nounScore += bonus;
  }
  if (nouns.length && nounScore === 0) return 0;
  // Operations matching every term rank above those matching some.
  if (terms.length > 1 && matched === terms.length) total *= 1.5;
  return total;
}

export interface SearchHit {
  operation: Operation;
  score: number;
}

export function searchCatalog(catalog: Catalog, query: string): SearchHit[] {
  const exactKey = normalizeKey(query);
  const fragment = /\/[^\s]*/.exec(query)?.[0]?.toLowerCase() ?? null;
  const terms = [...new Set(wordsOf(query))];
  return catalog.operations
    .map((operation) => ({ operation, score: score(operation, terms, fragment, exactKey) }))
    .filter((h) => h.score > 0)
    .sort((a, b) => b.score - a.score || a.operation.key.localeCompare(b.operation.key));
}

/** Names of the component schemas a value refers to, followed transitively. */
export function referencedSchemas(value: unknown, schemas: Record<string, Json>): Record<string, Json> {
  const found: Record<string, Json> = {};
  const visit = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v)) {
      if (k === '$ref' && typeof child === 'string') {
        const name = child.split('/').pop()!.replace(/#$/, '');
        if (!(name in found) && schemas[name]) {
          found[name] = schemas[name];
          visit(schemas[name]);
        }
      } else {
        visit(child);
      }
    }
  };
  visit(value);
  return found;
}
