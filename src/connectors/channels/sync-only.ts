import type { ChannelWebhooks } from './connector.js';
import { ChannelCallError } from './http.js';

/**
 * The webhooks of a platform whose orders come by sync only (Amazon, eBay, Etsy): nothing
 * verifies, so every delivery to fos's webhook route is refused (401) and stored nowhere.
 */
export function syncOnlyWebhooks(platform: string): ChannelWebhooks {
  return {
    topics: [],
    verify: () => false,
    topic: () => null,
    deliveryId: () => null,
    interpret: async () => {
      throw new ChannelCallError(`${platform} sends no webhooks to fos: its orders come in by sync`, true);
    },
  };
}
