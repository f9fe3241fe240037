import type { TxClient } from '../../db/types.js';
import type { Principal } from '../keys/index.js';
import { notFound } from '../errors.js';
import * as records from './store/records.js';

// Which teams' records a key reaches. A fulfiller key reaches its own team and every merchant
// team with an active fulfillment delegation to it; a merchant key reaches its own team only.
// Anything else answers 404, never 403 (design §2).

/** The part of a principal the product and vendor rules need. */
export type Caller = Pick<Principal, 'teamId' | 'teamKind'>;

/** db.prisma or a transaction client. */
export type Client = TxClient;

export async function reachableTeamIds(client: Client, caller: Caller): Promise<string[]> {
  if (caller.teamKind !== 'FULFILLER') return [caller.teamId];
  const delegations = await records.findDelegatedMerchantIds(client, caller.teamId);
  return [caller.teamId, ...delegations.map((d) => d.merchant_team_id)];
}

/** A merchant team delegated to the calling fulfiller, with its measurement system; else 404. */
export async function delegatedMerchant(client: Client, fulfillerTeamId: string, merchantTeamId: string) {
  const delegation = await records.findDelegationWithMerchant(client, fulfillerTeamId, merchantTeamId);
  if (!delegation) throw notFound('Merchant team', merchantTeamId);
  return delegation.merchant_team;
}

/** The fulfiller of a merchant team when it has exactly one active delegation, else null. */
export async function soleFulfillerOf(client: Client, merchantTeamId: string): Promise<string | null> {
  const delegations = await records.findTwoFulfillersOf(client, merchantTeamId);
  return delegations.length === 1 ? delegations[0].fulfiller_team_id : null;
}
