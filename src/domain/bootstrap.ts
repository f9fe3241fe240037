import { dialectOf } from '../db/dialect.js';
import type { Db } from '../db/types.js';
import { isSerializationFailure, isUniqueViolation } from '../db/client.js';
import { findBootstrapMark, generateToken, hashToken, insertBareKey, insertBootstrapMark, tokenHint } from './keys/index.js';
import { countTeams, insertTeam } from './teams/index.js';
import { transaction } from '../db/tx.js';

/** The highest rate tier (tiers are 1-4; TIER_LIMITS in src/server/rate-limit/stores.ts). */
export const BOOTSTRAP_TIER = 4;

export interface BootstrapResult {
  teamId: string;
  teamName: string;
  keyId: string;
  token: string;
}

// Within one process bootstraps of one SQLite file run one at a time: the SQLite driver waits for
// a lock synchronously (one writer, dialect singleWriter), so two connections of one process would block each
// other (the holder cannot commit while the waiter blocks the thread) until the busy timeout fails the waiter.
const running = new Map<string, Promise<unknown>>();

// First start against an empty database: one fulfiller team and one ADMIN key. The
// system_state row "bootstrap" is inserted first in the same transaction, so when several
// processes start at once exactly one commits; the others hit the unique id and roll back.
export function bootstrapIfEmpty(db: Db, teamName = 'My Warehouse'): Promise<BootstrapResult | null> {
  if (!dialectOf(db.provider).singleWriter) return bootstrapWithRetry(db, teamName);
  const previous = running.get(db.url) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => bootstrapWithRetry(db, teamName));
  running.set(db.url, next);
  void next
    .finally(() => {
      if (running.get(db.url) === next) running.delete(db.url);
    })
    .catch(() => undefined);
  return next;
}

async function bootstrapWithRetry(db: Db, teamName: string): Promise<BootstrapResult | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await bootstrapOnce(db, teamName);
    } catch (err) {
      // Another process held the write lock past the busy timeout (SQLite) or won a
      // serialization conflict (PostgreSQL): look again; it has most likely bootstrapped.
      if (attempt >= 5 || !isSerializationFailure(err)) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}

async function bootstrapOnce(db: Db, teamName: string): Promise<BootstrapResult | null> {
  if (await findBootstrapMark(db.prisma)) return null;
  const token = generateToken();
  try {
    return await transaction(db, async (tx) => {
      await insertBootstrapMark(tx, new Date());
      if ((await countTeams(tx)) > 0) return null; // teams made by `fos admin` before the first serve
      const team = await insertTeam(tx, { name: teamName, kind: 'FULFILLER', measurement_system: 'METRIC' });
      const key = await insertBareKey(tx, {
        team_id: team.id,
        name: 'local admin',
        description: 'Created on first start of fos serve',
        power_role: 'ADMIN',
        // The operator's own key on their own server: the highest tier, so a batch run from
        // the quick start (`fos fulfill run`, several requests per order) is not throttled.
        rate_tier: BOOTSTRAP_TIER,
        token_hash: hashToken(token),
        token_hint: tokenHint(token),
        created_by: 'bootstrap',
      });
      return { teamId: team.id, teamName: team.name, keyId: key.id, token };
    });
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}
