// The carrier-integrations area's door: what code outside src/domain/carrier-integrations/ may import (test/unit/layers.test.ts).
export { convertAndVerify, editAndVerify, verifyAfterConvert, verifyOrderAddress } from './address-verification.js';
export * as integrations from './integrations.js';
export { NO_INTEGRATION_MESSAGE, accountOf, credentialsOf, isTestLabel, testLabelFlag } from './integrations.js';
export { policyFetch, type OutboundPolicy } from './outbound.js';
export { teamCarrierRates, teamIntegrations } from './store.js';
export { testIntegration } from './test-call.js';
export { dedupeKey, type ShipmentStatus } from './tracking-events.js';
