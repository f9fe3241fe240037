import type { TxClient } from '../../../db/types.js';

// The carrier integration a person's carrier selection names, read (issue 38); the selection's
// rules stay in selection.ts.

/** The id of the team's carrier integration, if it is one. */
export function findTeamCarrierIntegrationId(tx: TxClient, teamId: string, id: string) {
  return tx.carrierIntegration.findFirst({ where: { id, team_id: teamId }, select: { id: true } });
}

/** The carrier integration's name and type. */
export function findCarrierIntegrationName(tx: TxClient, id: string) {
  return tx.carrierIntegration.findFirst({ where: { id }, select: { name: true, type: true } });
}
