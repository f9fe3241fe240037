import type { Db } from '../../db/types.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { findDelegationPage, findRateCardNames } from './store.js';

// Delegations (a merchant's stock fulfilled by a fulfiller): their view and list. A delegation's
// JSON rate card is set by the charges area (charges/delegation-card.ts), which owns rate cards.

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
  rate_card: (d.rate_card ?? null) as Record<string, unknown> | null, // a JSON card (charges/rate-card.ts)
  created_at: d.created_at,
  updated_at: d.updated_at,
  rate_card_id: d.rate_card_id ?? null,
});

/** The name of the card that prices the merchant: the versioned card's, else the JSON card's. */
function pricingCardName(d: { rate_card: unknown; rate_card_id?: string | null }, cards: Map<string, string>): string | null {
  if (d.rate_card_id) return cards.get(d.rate_card_id) ?? null;
  const name = (d.rate_card as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : null;
}

// The list names each merchant and the card pricing it, as a warehouse lead reads them (the write
// answers, which show one delegation just changed, carry the ids only).
export async function listDelegations(db: Db, fulfillerTeamId: string, q: PageRequest) {
  const where = { fulfiller_team_id: fulfillerTeamId };
  const orderBy = [{ created_at: 'asc' }, { id: 'asc' }];
  const rows = await findDelegationPage(db.prisma, pageArgs(q, where, orderBy));
  const page = toPage(rows, q, undefined, orderBy);
  const cardIds = [...new Set(page.data.flatMap((d) => (d.rate_card_id ? [d.rate_card_id] : [])))];
  const cards = new Map((cardIds.length ? await findRateCardNames(db.prisma, cardIds) : []).map((c) => [c.id, c.name]));
  return {
    data: page.data.map((d) => ({
      ...delegationView(d),
      merchant_team_name: d.merchant_team.name,
      rate_card_name: pricingCardName(d, cards),
    })),
    meta: page.meta,
  };
}
