import { conflict } from '../../../domain/errors.js';
import type { CarrierConnector } from '../connector.js';
import { platformError } from '../platform.js';
import { SHIPPO_BASE_URL, ShippoCarrier, shippoClient } from './carrier.js';
import { shippoWebhooks } from './webhook.js';

// The Shippo connector (docs/carriers.md): labels, refunds and tracking webhooks through the
// official shippo client, pointed at the integration's api_base_url. Shippo verifies no address
// for fos (the team's EasyPost integration does).

export const shippo: CarrierConnector = {
  type: 'SHIPPO',
  label: 'Shippo',
  defaultBaseUrl: SHIPPO_BASE_URL,
  credentialFields: ['api_key', 'webhook_secret'],
  testLabels: false,
  isTestKey: (key) => !!key?.startsWith('shippo_test_'),
  open: (account) => new ShippoCarrier(account),
  async test(account) {
    try {
      // GET /addresses: free, and refused with 401 for a wrong token.
      await shippoClient(account).addresses.list(1, 1);
    } catch (err) {
      throw conflict(`Connection test failed: ${platformError('Shippo', err).message}`);
    }
    return `Shippo accepted the API key${account.is_test ? ' (test mode)' : ''}.`;
  },
  webhooks: shippoWebhooks,
};
