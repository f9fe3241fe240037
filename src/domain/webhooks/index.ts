// The webhooks area's door: what code outside src/domain/webhooks/ may import (test/unit/layers.test.ts).
export { MAX_ATTEMPTS, deliverDueWebhooks, fetchSender, processDueEvents, type WebhookSender } from './dispatch.js';
export {
  createEndpoint,
  deleteEndpoint,
  deliveryView,
  endpointView,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  updateEndpoint,
} from './endpoints.js';
export { pollEvents, triggerEvent } from './listen.js';
export { findOutboxBacklog } from './store/webhooks.js';
