// Input bounds every request schema gets unless it states its own (applied once per route by
// src/server/openapi.ts, so validation and the OpenAPI document show the same limits).
// Numbers must fit the columns they reach: Prisma `Int` is 32-bit on both databases (SQLite
// stores more but then cannot read the row back), and a query number compared with a `BigInt`
// column must stay an exact 64-bit value. Strings are capped so no text is unbounded.

export const INT_MAX = 2_147_483_647;
export const INT_MIN = -2_147_483_648;
/** Largest number accepted where a field does not say: exact in a double, fits BigInt. */
export const NUMBER_MAX = 1e15;
/** Longest string accepted where a field does not say. */
export const STRING_MAX = 10_000;

type Node = Record<string, unknown>;

function bound(schema: unknown, depth = 0): void {
  if (!schema || typeof schema !== 'object' || depth > 40) return;
  if (Array.isArray(schema)) {
    for (const s of schema) bound(s, depth + 1);
    return;
  }
  const s = schema as Node;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('integer')) {
    s.maximum ??= s.exclusiveMaximum === undefined ? INT_MAX : undefined;
    s.minimum ??= s.exclusiveMinimum === undefined ? INT_MIN : undefined;
    if (s.maximum === undefined) delete s.maximum;
    if (s.minimum === undefined) delete s.minimum;
  } else if (types.includes('number')) {
    if (s.maximum === undefined && s.exclusiveMaximum === undefined) s.maximum = NUMBER_MAX;
    if (s.minimum === undefined && s.exclusiveMinimum === undefined) s.minimum = -NUMBER_MAX;
  }
  if (types.includes('string') && s.maxLength === undefined && !Array.isArray(s.enum) && s.const === undefined) {
    s.maxLength = s.format === 'uuid' ? 36 : STRING_MAX;
  }
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions']) {
    const members = s[key];
    if (members && typeof members === 'object') for (const v of Object.values(members)) bound(v, depth + 1);
  }
  for (const key of ['items', 'additionalProperties', 'not', 'anyOf', 'oneOf', 'allOf', 'prefixItems']) bound(s[key], depth + 1);
}

/** Adds the default bounds to a route's request schemas (params, querystring, body, headers). */
export function boundRequestSchemas(schema: Record<string, unknown>) {
  for (const part of ['params', 'querystring', 'body', 'headers']) bound(schema[part]);
}

/** True when the string holds no lone UTF-16 surrogate (PostgreSQL refuses them in text). */
export const isWellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();
