// The channels area's door: what code outside src/domain/channels/ may import (test/unit/layers.test.ts).
export { cancelFromChannel } from './cancel.js';
export { DEFAULT_SETTINGS, connectorFor, openConnection, sealCredentials } from './connection.js';
export { listDeliveries, receiveChannelWebhook, receiveFulfillmentNotification, recoverDeliveries, replayDelivery } from './deliveries.js';
export { intakeOrder, matchLines } from './intake.js';
export * as shops from './shops.js';
export { getShop, insertShop, shopScope, teamsOf } from './shops.js';
export { pushStock } from './stock.js';
export { DEFAULT_SYNC_INTERVAL_MS, syncDueShops, syncShop } from './sync.js';
export { channelAdapters } from './tracking.js';
export * as appInstall from './app-install.js';
export * as authorizations from './authorizations.js';
