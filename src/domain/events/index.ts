// The events area's door: what code outside src/domain/events/ may import (test/unit/layers.test.ts).
export { EVENT_KINDS, enqueueEvent, enqueueEvents, enqueueForParties, isEventKind, type EventKind } from './outbox.js';
export {
  NO_CONNECTOR,
  PermanentPushError,
  defaultSalesChannelAdapters,
  pushTracking,
  type SalesChannelAdapter,
  type SalesChannelAdapters,
  type TrackingPush,
} from './sales-channel.js';
export { markDelivered } from './store.js';
