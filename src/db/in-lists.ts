/** Values per IN (...) list: well under SQLite's and PostgreSQL's limits on bound parameters. */
export const IN_LIST_MAX = 500;

/** `values` in slices of at most IN_LIST_MAX, one query each (scan forms, carrier invoice imports). */
export function* inLists<T>(values: readonly T[]): Generator<T[]> {
  for (let i = 0; i < values.length; i += IN_LIST_MAX) yield values.slice(i, i + IN_LIST_MAX);
}
