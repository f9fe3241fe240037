import type { Db } from '../db/types.js';
import { isUniqueViolation } from '../db/client.js';
import { generateToken, hashToken, tokenHint } from './keys/token.js';

export interface BootstrapResult {
  teamId: string;
  teamName: string;
  keyId: string;
  token: string;
}

// First start against an empty database: one fulfiller team and one ADMIN key. The
// system_state row "bootstrap" is inserted first in the same transaction, so when several
// processes start at once exactly one commits; the others hit the unique id and roll back.
export async function bootstrapIfEmpty(db: Db, teamName = 'My Warehouse'): Promise<BootstrapResult | null> {
  if (await db.prisma.systemState.findUnique({ where: { id: 'bootstrap' } })) return null;
  const token = generateToken();
  try {
    return await db.prisma.$transaction(async (tx) => {
      await tx.systemState.create({ data: { id: 'bootstrap', value: { at: new Date().toISOString() } } });
      if ((await tx.team.count()) > 0) return null; // teams made by `fos admin` before the first serve
      const team = await tx.team.create({ data: { name: teamName, kind: 'FULFILLER', measurement_system: 'METRIC' } });
      const key = await tx.apiKey.create({
        data: {
          team_id: team.id,
          name: 'local admin',
          description: 'Created on first start of fos serve',
          power_role: 'ADMIN',
          token_hash: hashToken(token),
          token_hint: tokenHint(token),
          created_by: 'bootstrap',
        },
      });
      return { teamId: team.id, teamName: team.name, keyId: key.id, token };
    });
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}
