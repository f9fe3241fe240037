import fastJsonStringify from 'fast-json-stringify';

// Response serializer: Fastify's default (fast-json-stringify), fed schemas in which every
// "nullable" union `anyOf: [T, {type: 'null'}]` (our Nullable/Opt helpers) of a typed T becomes
// `{...T, type: [T.type, 'null']}`. fast-json-stringify serializes a type list with typeof
// checks, but an anyOf with an Ajv validator per branch: compiled lazily, one Ajv instance per
// route, which cost 0.3-0.9 s on the first response of each route (the fulfill workflow's p95)
// and an Ajv call per nullable field on every response after. Only serialization sees the
// rewritten schemas: validation, the OpenAPI document and the agent-tool catalog keep the
// route schemas as written. The output is the same JSON.

type Schema = Record<string | symbol, unknown>;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not', '$ref', 'const', 'if'];

/** `T` when `schema` is exactly `anyOf: [T, null]` (either order) and T is a plain typed schema. */
function nullableBranch(schema: Schema): Schema | undefined {
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2 || COMBINATORS.some((k) => k !== 'anyOf' && k in schema)) return undefined;
  const isNull = (s: unknown) => isObject(s) && s.type === 'null';
  const other = isNull(anyOf[0]) ? anyOf[1] : isNull(anyOf[1]) ? anyOf[0] : undefined;
  if (!isObject(other) || typeof other.type !== 'string' || other.type === 'null') return undefined;
  if (COMBINATORS.some((k) => k in other)) return undefined;
  return other;
}

/** A copy of `schema` with nullable unions as type lists (see the header); other nodes unchanged. */
export function nullableAsTypeList(schema: unknown, seen = new Map<object, unknown>()): unknown {
  if (Array.isArray(schema)) return schema.map((s) => nullableAsTypeList(s, seen));
  if (!isObject(schema)) return schema;
  if (seen.has(schema)) return seen.get(schema);
  const out: Schema = {};
  seen.set(schema, out);
  const branch = nullableBranch(schema);
  const source: Schema = branch ? { ...schema, ...branch } : schema;
  for (const key of Reflect.ownKeys(source)) {
    if (branch && key === 'anyOf') continue;
    const v = source[key];
    // `properties` / `$defs` hold schemas by name; `enum` / `required` / `examples` hold data.
    out[key] = key === 'enum' || key === 'required' || key === 'examples' || key === 'default' ? v : nullableAsTypeList(v, seen);
  }
  if (branch) out.type = [branch.type as string, 'null'];
  return out;
}

type SerializerFactory = (externalSchemas?: unknown, serializerOpts?: object) => (route: { schema?: unknown }) => (data: unknown) => string;

/** For Fastify's `schemaController.compilersFactory.buildSerializer` (mirrors the default one). */
export const buildSerializer: SerializerFactory = (externalSchemas, serializerOpts) => {
  const shared = Object.fromEntries(
    Object.entries((externalSchemas ?? {}) as Record<string, unknown>).map(([id, s]) => [id, nullableAsTypeList(s)]),
  );
  return ({ schema }) => {
    const own = isObject(schema) && typeof schema.$id === 'string' ? schema.$id : undefined;
    const external = own && own in shared ? Object.fromEntries(Object.entries(shared).filter(([id]) => id !== own)) : shared;
    const opts = { ...serializerOpts, schema: external } as Parameters<typeof fastJsonStringify>[1];
    // Built on the route's first response (as validators are, app.ts): only the routes in use cost memory.
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => {
      serialize ??= fastJsonStringify(nullableAsTypeList(schema) as Parameters<typeof fastJsonStringify>[0], opts) as (
        data: unknown,
      ) => string;
      return serialize(data);
    };
  };
};
