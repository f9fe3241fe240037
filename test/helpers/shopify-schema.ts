// Validates a GraphQL Admin request against the subset of Shopify's schema fos uses
// (test/fixtures/shopify-admin-subset.graphql, written from Shopify's reference pages): the
// document must parse and validate (unknown fields, arguments, types refused) and the variables
// must coerce to their declared types (unknown input fields refused). Version differences of
// the inputs fos sends are applied per API version.

import { readFileSync } from 'node:fs';
import { buildSchema, getVariableValues, parse, validate, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';

const SDL = readFileSync(new URL('../fixtures/shopify-admin-subset.graphql', import.meta.url), 'utf8');
const schemas = new Map<string, GraphQLSchema>();

/** The schema of an API version ("2026-10", "unstable"). */
export function shopifySchema(version: string): GraphQLSchema {
  let schema = schemas.get(version);
  if (!schema) {
    const at = (v: string) => version === 'unstable' || version >= v;
    let sdl = SDL;
    if (!at('2026-01')) sdl = sdl.replace(/^\s*changeFromQuantity: Int.*$/m, '');
    if (at('2026-04')) sdl = sdl.replace(/^\s*ignoreCompareQuantity: Boolean.*$/m, '');
    schemas.set(version, (schema = buildSchema(sdl)));
  }
  return schema;
}

/** GraphQL errors as Shopify answers them (HTTP 200, `errors`), or null when the request is valid. */
export function shopifyRequestErrors(version: string, query: unknown, variables: unknown): { message: string }[] | null {
  if (typeof query !== 'string') return [{ message: 'No query string was present' }];
  const schema = shopifySchema(version);
  let doc;
  try {
    doc = parse(query);
  } catch (err) {
    return [{ message: (err as Error).message }];
  }
  const errors = validate(schema, doc);
  if (errors.length) return errors.map((e) => ({ message: e.message }));
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (ops.length !== 1) return [{ message: 'exactly one operation expected' }];
  const coerced = getVariableValues(schema, ops[0]!.variableDefinitions ?? [], (variables ?? {}) as Record<string, unknown>);
  return coerced.errors ? coerced.errors.map((e) => ({ message: e.message })) : null;
}
