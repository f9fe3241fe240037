import type { Db } from '../../db/types.js';
import { conflict } from '../errors.js';
import { easypostClient } from '../fulfillment/carriers/easypost.js';
import { platformError } from '../fulfillment/carriers/platform.js';
import { shippoClient } from '../fulfillment/carriers/shippo.js';
import { findIntegration } from './integrations.js';
import type { OutboundPolicy } from './outbound.js';

// `fos carriers test`: one real, free call with the integration's key (EasyPost GET /addresses,
// Shippo GET /addresses), so a wrong key, base URL or network policy shows before a label is
// bought. A failure is a 409 naming the cause (a refused key: "refused the API key (HTTP 401)").

export async function testIntegration(db: Db, teamId: string, id: string, policy: OutboundPolicy) {
  const row = await findIntegration(db, teamId, id);
  if (row.type === 'TABLE') {
    const rates = await db.prisma.carrierRate.count({ where: { team_id: teamId } });
    if (!rates) throw conflict('The rate table has no rates (POST /v1/ops/carrier-rates).');
    return { ok: true, message: `Rate table with ${rates} service${rates === 1 ? '' : 's'} (a test carrier).`, is_test: true };
  }
  if (!row.credentials_sealed)
    throw conflict(
      `Carrier integration ${id} has no credentials (disconnected); give it a key again: fos carriers update ${id} --api-key <key> (PATCH /v1/ops/carrier-integrations/${id} with credentials).`,
    );
  const platform = row.type === 'EASYPOST' ? 'EasyPost' : 'Shippo';
  try {
    if (row.type === 'EASYPOST') await easypostClient(row, policy).Address.all({ page_size: 1 });
    else await shippoClient(row, policy).addresses.list(1, 1);
  } catch (err) {
    throw conflict(`Connection test failed: ${platformError(platform, err).message}`);
  }
  return { ok: true, message: `${platform} accepted the API key${row.is_test ? ' (test mode)' : ''}.`, is_test: row.is_test };
}
