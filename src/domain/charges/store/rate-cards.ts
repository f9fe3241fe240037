import type { Db, Prisma, TxClient } from '../../../db/types.js';

// Versioned rate cards and their versions through Prisma's client (issue 38): a team's card by
// id, name or either, a card's versions (by id, semantic_version, in force at a time), the
// publish's writes, and the list's page.

type Client = Db['prisma'] | TxClient;

/** A card of the team by id. */
export function findTeamCard(client: Client, teamId: string, id: string) {
  return client.rateCard.findFirst({ where: { id, fulfiller_team_id: teamId } });
}

/** A card of the team by name. */
export function findTeamCardNamed(client: Client, teamId: string, name: string) {
  return client.rateCard.findFirst({ where: { fulfiller_team_id: teamId, name } });
}

/** A card of the team by id or by name. */
export function findTeamCardByRef(client: Client, teamId: string, ref: string) {
  return client.rateCard.findFirst({ where: { fulfiller_team_id: teamId, OR: [{ id: ref }, { name: ref }] } });
}

/** The team's card of this name, made when it has none. */
export function upsertCardNamed(tx: TxClient, teamId: string, name: string) {
  return tx.rateCard.upsert({
    where: { fulfiller_team_id_name: { fulfiller_team_id: teamId, name } },
    create: { fulfiller_team_id: teamId, name },
    update: {},
  });
}

/** A card's name (a compiled version carries it). */
export function findCardName(client: Client, id: string) {
  return client.rateCard.findUniqueOrThrow({ where: { id }, select: { name: true } });
}

export function touchCard(tx: TxClient, id: string, at: Date) {
  return tx.rateCard.update({ where: { id }, data: { updated_at: at } });
}

/** One page of cards (pageArgs' window). */
export function findCardPage(client: Client, window: { where: Prisma.RateCardWhereInput; orderBy: never; skip: number; take: number }) {
  return client.rateCard.findMany(window);
}

export function findVersion(client: Client, id: string) {
  return client.rateCardVersion.findUnique({ where: { id } });
}

export function findVersionOrThrow(client: Client, id: string) {
  return client.rateCardVersion.findUniqueOrThrow({ where: { id } });
}

export function findVersionBySemver(client: Client, rateCardId: string, semanticVersion: string) {
  return client.rateCardVersion.findUnique({
    where: { rate_card_id_semantic_version: { rate_card_id: rateCardId, semantic_version: semanticVersion } },
  });
}

/** A card's version by id or by semantic_version. */
export function findVersionByRef(client: Client, rateCardId: string, ref: string) {
  return client.rateCardVersion.findFirst({ where: { rate_card_id: rateCardId, OR: [{ id: ref }, { semantic_version: ref }] } });
}

/** The card's version in force at `at`: the latest effective by then (the later made of a tie). */
export function findVersionInForce(client: Client, rateCardId: string, at: Date) {
  return client.rateCardVersion.findFirst({
    where: { rate_card_id: rateCardId, effective_at: { lte: at } },
    orderBy: [{ effective_at: 'desc' }, { created_at: 'desc' }],
  });
}

/** The versions of these cards, oldest in force first, without their fees. */
export function findCardVersions(client: Client, rateCardIds: string[]) {
  return client.rateCardVersion.findMany({
    where: { rate_card_id: { in: rateCardIds } },
    select: { id: true, rate_card_id: true, semantic_version: true, effective_at: true, created_at: true },
    orderBy: [{ effective_at: 'asc' }, { created_at: 'asc' }],
  });
}

export function insertVersion(tx: TxClient, data: Prisma.RateCardVersionUncheckedCreateInput) {
  return tx.rateCardVersion.create({ data });
}
