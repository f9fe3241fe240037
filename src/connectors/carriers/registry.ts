import type { CarrierConnector } from './connector.js';
import { easypost } from './easypost/index.js';
import { shippo } from './shippo/index.js';
import { BUILT_IN_TABLE, table } from './table/index.js';

// Every carrier connector, keyed by its carrier integration type. Adding a carrier is a folder
// beside these and one line here (and its type in INTEGRATION_TYPES, src/contract/enums.ts); the
// domain and the server find it by the integration's type.

const CONNECTORS: Record<string, CarrierConnector> = Object.fromEntries([easypost, shippo, table].map((c) => [c.type, c]));

/** The integration types a connector serves. */
export const carrierTypes = () => Object.keys(CONNECTORS);

/** The connector of an integration type, or null (GENERIC: an uploaded label, no integration). */
export const carrierConnectorOrNull = (type: string | null | undefined): CarrierConnector | null => (type && CONNECTORS[type]) || null;

export function carrierConnector(type: string): CarrierConnector {
  const c = carrierConnectorOrNull(type);
  if (!c) throw new Error(`no carrier connector for integration type ${type}`);
  return c;
}

/** The connectors that verify addresses (the team's first such integration verifies its orders). */
export const addressVerifierTypes = () => carrierTypes().filter((t) => CONNECTORS[t]!.verifyAddress);

/** A team without integration rows rates with the built-in rate table (id "table"). */
export { BUILT_IN_TABLE };
