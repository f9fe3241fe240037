import type { Db, Prisma, TxClient } from '../../db/types.js';

// The teams area's data access (issue 38 item 4): teams, delegations, and the places `fos admin`
// makes (warehouses, location types), through Prisma. The checks (names, kinds, label formats,
// time zones) stay in teams.ts and delegations.ts; each function here is one statement.

type Client = Db['prisma'] | TxClient;
/** A team's rows, or every team's when teamId is absent (the admin CLI). */
const ofTeam = (teamId?: string) => (teamId ? { team_id: teamId } : {});

// Teams.

export function insertTeam(client: Client, data: Prisma.TeamUncheckedCreateInput) {
  return client.team.create({ data });
}

export function countTeams(client: Client) {
  return client.team.count();
}

export function findTeams(client: Client) {
  return client.team.findMany({ orderBy: { created_at: 'asc' } });
}

export function findTeam(client: Client, id: string) {
  return client.team.findUnique({ where: { id } });
}

// Delegations.

export function insertDelegation(client: Client, data: Prisma.FulfillmentDelegationUncheckedCreateInput) {
  return client.fulfillmentDelegation.create({ data });
}

/** The delegations the team is either side of, or all (oldest first). */
export function findDelegationsOf(client: Client, teamId?: string) {
  return client.fulfillmentDelegation.findMany({
    where: teamId ? { OR: [{ merchant_team_id: teamId }, { fulfiller_team_id: teamId }] } : {},
    orderBy: { created_at: 'asc' },
  });
}

/** One page of delegations (pageArgs' window). */
export function findDelegationPage(
  client: Client,
  window: { where: Prisma.FulfillmentDelegationWhereInput; orderBy: never; skip: number; take: number },
) {
  return client.fulfillmentDelegation.findMany({ ...window, include: { merchant_team: { select: { name: true } } } });
}

/** Names of rate cards by id (the versioned cards delegations point at). */
export function findRateCardNames(client: Client, ids: string[]) {
  return client.rateCard.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

// Places.

export function insertWarehouse(tx: TxClient, data: Prisma.WarehouseUncheckedCreateInput) {
  return tx.warehouse.create({ data });
}

/** Updates the warehouse; the count of warehouses changed (0: no such warehouse). */
export function updateWarehouse(client: Client, id: string, data: Prisma.WarehouseUpdateManyMutationInput) {
  return client.warehouse.updateMany({ where: { id }, data });
}

export function findWarehouseOrThrow(client: Client, id: string) {
  return client.warehouse.findUniqueOrThrow({ where: { id } });
}

export function findWarehouses(client: Client, teamId?: string) {
  return client.warehouse.findMany({ where: ofTeam(teamId), orderBy: { created_at: 'asc' } });
}

export function insertLocationType(client: Client, data: { team_id: string; name: string }) {
  return client.locationType.create({ data });
}

export function findLocationTypes(client: Client, teamId?: string) {
  return client.locationType.findMany({ where: ofTeam(teamId), orderBy: { created_at: 'asc' } });
}
