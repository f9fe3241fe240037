import { randomUUID } from 'node:crypto';
import type { Db, Prisma } from '../../db/types.js';
import { DomainError, notFound } from '../errors.js';
import { transaction } from '../../db/tx.js';
import { delegationView } from '../teams/index.js';
import { validateRateCard, type RateCard } from './rate-card.js';
import { findFulfillerDelegation, setJsonCardIfUnchanged } from './store/delegations.js';

// Rate cards after the fact (PUT /v1/ops/delegations/{id}/rate-card). Each PUT is a new version:
// the server gives it a fresh version_id (and, unless the body names one, the next patch
// semantic_version), and it replaces the delegation's card. Charges copy the card's id, version_id
// and semantic_version into their pricing_trace when they are made, so new charges use the new
// version and older charges keep theirs.

export type RateCardInput = Omit<RateCard, 'version_id' | 'semantic_version'> & { semantic_version?: string };

const nextPatch = (v: string | undefined) => {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(v ?? '');
  return m ? `${m[1]}.${m[2]}.${Number(m[3]) + 1}` : '1.0.0';
};

export async function setRateCard(db: Db, fulfillerTeamId: string, delegationId: string, input: RateCardInput) {
  return transaction(db, async (tx) => {
    // Compare-and-set against the version read, so two PUTs at once give two versions in turn.
    for (;;) {
      const d = await findFulfillerDelegation(tx, fulfillerTeamId, delegationId);
      if (!d) throw notFound('Delegation', delegationId);
      const before = d.rate_card as RateCard | null;
      const card: RateCard = {
        ...input,
        version_id: randomUUID(),
        semantic_version: input.semantic_version ?? nextPatch(before?.semantic_version),
      };
      const errors = validateRateCard(card);
      if (errors.length) throw new DomainError('validation-failed', `${errors[0].path}: ${errors[0].message}`, { errors });
      const { count } = await setJsonCardIfUnchanged(tx, d.id, d.updated_at, card as unknown as Prisma.InputJsonValue);
      if (count === 1) return delegationView({ ...d, rate_card: card, updated_at: new Date() });
    }
  });
}
