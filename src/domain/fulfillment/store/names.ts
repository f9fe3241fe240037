import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { Db, TxClient } from '../../../db/types.js';

// The names statement of lookups.ts (loadNames), through Prisma's tagged templates as before, on
// a transaction's client or on db.prisma: the same SQL on both databases.

export interface NameRow {
  kind: 'w' | 't' | 's';
  id: string;
  name: string;
  address1: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  extra: string | null; // a warehouse's label_format, a shop's shop_type
}

/**
 * Warehouses, teams and shops by id in ONE statement (a UNION ALL of the kinds asked for; none
 * asked: no statement). Each list is of distinct ids.
 */
export async function nameRows(
  client: Db['prisma'] | TxClient,
  warehouses: string[],
  teams: string[],
  shops: string[],
): Promise<NameRow[]> {
  const parts: Sql[] = [];
  // Enum columns are cast to text, so the branches agree on PostgreSQL too.
  if (warehouses.length)
    parts.push(
      sql`SELECT 'w' AS kind, id, name, address1, city, state, zip, country, CAST(label_format AS TEXT) AS extra FROM warehouses WHERE id IN (${join(warehouses)})`,
    );
  if (teams.length)
    parts.push(sql`SELECT 't' AS kind, id, name, NULL, NULL, NULL, NULL, NULL, NULL FROM teams WHERE id IN (${join(teams)})`);
  if (shops.length)
    parts.push(
      sql`SELECT 's' AS kind, id, name, NULL, NULL, NULL, NULL, NULL, CAST(shop_type AS TEXT) FROM shops WHERE id IN (${join(shops)})`,
    );
  return parts.length ? await client.$queryRaw<NameRow[]>(join(parts, ' UNION ALL ')) : [];
}
