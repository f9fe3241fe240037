import type { Statements } from '../../../db/statements.js';

// The request lines' products read on the write paths' prepared statements (issue 29 item 3): a
// 1,000-line receipt or adjustment names its products in one statement whose keys and teams are
// two JSON parameters, so the text is prepared once and no Prisma query is built per request.

export interface ProductKeyRow {
  id: string;
  sku: string | null;
  name: string;
  team_id: string;
}

/** The products of these teams whose `key` (id or sku) is one of `values`. */
export function productsByKey(
  st: Pick<Statements, 'dialect' | 'all'>,
  key: 'id' | 'sku',
  values: string[],
  teamIds: string[],
): Promise<ProductKeyRow[]> {
  const list = st.dialect.jsonSql.values;
  return st.all<ProductKeyRow>(
    `SELECT "id", "sku", "name", "team_id" FROM "products"
     WHERE "${key}" IN (SELECT value FROM ${list}) AND "team_id" IN (SELECT value FROM ${list})`,
    [JSON.stringify(values), JSON.stringify(teamIds)],
  );
}
