import type { Db, Prisma, TxClient } from '../../../db/types.js';

// Fulfillment delegations as the charges area reads and writes them (issue 38): the delegation
// between two teams or of a fulfiller team, its JSON rate card and its versioned card's link.

type Client = Db['prisma'] | TxClient;

/** The delegation between a merchant and a fulfiller team (the pair is unique). */
export function findDelegationBetween(tx: TxClient, merchantTeamId: string, fulfillerTeamId: string) {
  return tx.fulfillmentDelegation.findUnique({
    where: { merchant_team_id_fulfiller_team_id: { merchant_team_id: merchantTeamId, fulfiller_team_id: fulfillerTeamId } },
  });
}

/** The same, with what billing by a versioned card needs of it. */
export function findBillingDelegation(tx: TxClient, merchantTeamId: string, fulfillerTeamId: string) {
  return tx.fulfillmentDelegation.findUnique({
    where: { merchant_team_id_fulfiller_team_id: { merchant_team_id: merchantTeamId, fulfiller_team_id: fulfillerTeamId } },
    select: { id: true, merchant_team_id: true, fulfiller_team_id: true, rate_card_id: true, active: true },
  });
}

/** A delegation of the fulfiller team, by id. */
export function findFulfillerDelegation(tx: TxClient, fulfillerTeamId: string, id: string) {
  return tx.fulfillmentDelegation.findFirst({ where: { id, fulfiller_team_id: fulfillerTeamId } });
}

/** An active delegation of the fulfiller team, by id. */
export function findActiveDelegation(tx: TxClient, fulfillerTeamId: string, id: string) {
  return tx.fulfillmentDelegation.findFirst({ where: { id, fulfiller_team_id: fulfillerTeamId, active: true } });
}

/** The delegations that bill by these versioned cards. */
export function findCardDelegations(client: Client, rateCardIds: string[]) {
  return client.fulfillmentDelegation.findMany({ where: { rate_card_id: { in: rateCardIds } }, select: { id: true, rate_card_id: true } });
}

/** Replaces the delegation's JSON card if the delegation is still as read (its updated_at); how many rows changed. */
export function setJsonCardIfUnchanged(tx: TxClient, id: string, updatedAt: Date, card: Prisma.InputJsonValue) {
  return tx.fulfillmentDelegation.updateMany({ where: { id, updated_at: updatedAt }, data: { rate_card: card } });
}

/** Points the delegation at a versioned card (null: none); the delegation. */
export function linkRateCard(tx: TxClient, id: string, rateCardId: string | null) {
  return tx.fulfillmentDelegation.update({ where: { id }, data: { rate_card_id: rateCardId } });
}
