import type { Db } from '../../db/types.js';
import { carrierConnector } from '../../connectors/carriers/registry.js';
import { conflict } from '../errors.js';
import { accountOf } from './integrations.js';
import { findIntegration } from './integrations.js';
import type { OutboundPolicy } from './outbound.js';

// `fos carriers test`: one real, free call with the integration's key (its connector's test:
// EasyPost GET /addresses, Shippo GET /addresses; the rate table counts its rates), so a wrong
// key, base URL or network policy shows before a label is bought. A failure is a 409 naming the
// cause (a refused key: "refused the API key (HTTP 401)").

export async function testIntegration(db: Db, teamId: string, id: string, policy: OutboundPolicy) {
  const row = await findIntegration(db, teamId, id);
  const connector = carrierConnector(row.type);
  if (connector.credentialFields.length && !row.credentials_sealed)
    throw conflict(
      `Carrier integration ${id} has no credentials (disconnected); give it a key again: fos carriers update ${id} --api-key <key> (PATCH /v1/ops/carrier-integrations/${id} with credentials).`,
    );
  const message = await connector.test(accountOf(db, row, policy));
  return { ok: true, message, is_test: row.is_test };
}
