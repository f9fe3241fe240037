import { conflict } from '../../../domain/errors.js';
import type { CarrierConnector } from '../connector.js';
import { platformError } from '../platform.js';
import { verifyAddress } from './address.js';
import { EASYPOST_BASE_URL, EasyPostCarrier, easypostClient } from './carrier.js';
import { easypostWebhooks } from './webhook.js';

// The EasyPost connector (docs/carriers.md): labels, refunds, address verification and tracker
// webhooks through the official @easypost/api client, pointed at the integration's api_base_url.

export const easypost: CarrierConnector = {
  type: 'EASYPOST',
  label: 'EasyPost',
  defaultBaseUrl: EASYPOST_BASE_URL,
  credentialFields: ['api_key', 'webhook_secret'],
  testLabels: false,
  // Test keys (EZTK…) buy free labels that do not ship.
  isTestKey: (key) => !!key?.startsWith('EZTK'),
  open: (account) => new EasyPostCarrier(account),
  async test(account) {
    try {
      // GET /addresses: free, and refused with 401 for a wrong key.
      await easypostClient(account).Address.all({ page_size: 1 });
    } catch (err) {
      throw conflict(`Connection test failed: ${platformError('EasyPost', err).message}`);
    }
    return `EasyPost accepted the API key${account.is_test ? ' (test mode)' : ''}.`;
  },
  verifyAddress,
  webhooks: easypostWebhooks,
};
