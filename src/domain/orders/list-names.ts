import type { Db } from '../../db/types.js';
import { invalid } from '../errors.js';
import { findDelegatedMerchantsNamed, findShopsNamed } from './store/lists.js';

// The order list's merchant and shop filters take ids or exact names (issue 34 item 4): no list
// a READ_ORDERS key may read names merchants or shops, so the server resolves the names, among
// the caller's delegated merchants and the shops it fulfills for only.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Named = { id: string; name: string };

function named(db: Db, teamId: string, kind: 'merchant' | 'shop', names: string[]): Promise<Named[]> {
  return kind === 'shop' ? findShopsNamed(db.prisma, teamId, names) : findDelegatedMerchantsNamed(db.prisma, teamId, names);
}

/** `values` (ids or exact names) -> ids; an unknown or ambiguous name is a 400 naming it. */
export async function idsOfNamed(db: Db, teamId: string, kind: 'merchant' | 'shop', path: string, values?: string[]) {
  if (!values) return undefined;
  const names = values.filter((v) => !UUID.test(v));
  if (!names.length) return values;
  const found = await named(db, teamId, kind, names);
  const ids = values.filter((v) => UUID.test(v));
  for (const name of names) {
    const matches = [...new Set(found.filter((f) => f.name === name).map((f) => f.id))];
    if (!matches.length) throw invalid(path, `no ${kind} of this team is named "${name}" (names match exactly)`);
    if (matches.length > 1) throw invalid(path, `${matches.length} ${kind}s are named "${name}": ${matches.join(', ')}; pass the id`);
    ids.push(matches[0]);
  }
  return ids;
}
