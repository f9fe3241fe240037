// The locations area's door: what code outside src/domain/locations/ may import (test/unit/layers.test.ts).
export { damagedBinFor, ensureDamagedLocation } from './held.js';
export * as locations from './locations.js';
export { resolveLocation } from './locations.js';
export { landing, putawayFor, suggestPutaway, type Into, type PutawayReason, type PutawaySuggestion } from './putaway.js';
