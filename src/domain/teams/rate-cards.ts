import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/types.js';
import { DomainError, notFound } from '../errors.js';
import { validateRateCard, type RateCard } from '../charges/index.js';
import { transaction } from '../../db/tx.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';

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

export const delegationView = (d: {
  id: string;
  merchant_team_id: string;
  fulfiller_team_id: string;
  active: boolean;
  rate_card: unknown;
  created_at: Date;
  updated_at: Date;
  rate_card_id?: string | null;
}) => ({
  id: d.id,
  merchant_team_id: d.merchant_team_id,
  fulfiller_team_id: d.fulfiller_team_id,
  active: d.active,
  rate_card: (d.rate_card ?? null) as RateCard | null,
  created_at: d.created_at,
  updated_at: d.updated_at,
  rate_card_id: d.rate_card_id ?? null,
});

export async function listDelegations(db: Db, fulfillerTeamId: string, q: PageRequest) {
  const where = { fulfiller_team_id: fulfillerTeamId };
  const orderBy = [{ created_at: 'asc' }, { id: 'asc' }];
  const rows = await db.prisma.fulfillmentDelegation.findMany(pageArgs(q, where, orderBy));
  const page = toPage(rows, q, undefined, orderBy);
  return { data: page.data.map(delegationView), meta: page.meta };
}

export async function setRateCard(db: Db, fulfillerTeamId: string, delegationId: string, input: RateCardInput) {
  return transaction(db, async (tx) => {
    // Compare-and-set against the version read, so two PUTs at once give two versions in turn.
    for (;;) {
      const d = await tx.fulfillmentDelegation.findFirst({ where: { id: delegationId, fulfiller_team_id: fulfillerTeamId } });
      if (!d) throw notFound('Delegation', delegationId);
      const before = d.rate_card as RateCard | null;
      const card: RateCard = {
        ...input,
        version_id: randomUUID(),
        semantic_version: input.semantic_version ?? nextPatch(before?.semantic_version),
      };
      const errors = validateRateCard(card);
      if (errors.length) throw new DomainError('validation-failed', `${errors[0].path}: ${errors[0].message}`, { errors });
      const { count } = await tx.fulfillmentDelegation.updateMany({
        where: { id: d.id, updated_at: d.updated_at },
        data: { rate_card: card as never },
      });
      if (count === 1) return delegationView({ ...d, rate_card: card, updated_at: new Date() });
    }
  });
}
