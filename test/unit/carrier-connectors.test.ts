import { describe, expect, test } from 'vitest';
import { INTEGRATION_TYPES, KEYLESS_INTEGRATION_TYPES } from '../../src/contract/enums.js';
import { addressVerifierTypes, carrierConnector, carrierConnectorOrNull, carrierTypes } from '../../src/connectors/carriers/registry.js';
import { isTestLabel } from '../../src/domain/carrier-integrations/integrations.js';

// The carrier registry (src/connectors/carriers/registry.ts) and the contract agree: every
// integration type the API takes has a connector, and the CLI's list of key-less types is the
// connectors' own (those without credential fields).

describe('carrier connectors', () => {
  test('one connector per integration type of the contract', () => {
    expect([...carrierTypes()].sort()).toEqual([...INTEGRATION_TYPES].sort());
    for (const t of INTEGRATION_TYPES) expect(carrierConnector(t).type).toBe(t);
    expect(carrierConnectorOrNull('GENERIC')).toBeNull();
    expect(carrierConnectorOrNull(null)).toBeNull();
    expect(() => carrierConnector('GENERIC')).toThrow(/no carrier connector/);
  });

  test("the CLI's key-less types are the connectors without credential fields", () => {
    const keyless = carrierTypes().filter((t) => !carrierConnector(t).credentialFields.length);
    expect(keyless.sort()).toEqual([...KEYLESS_INTEGRATION_TYPES].sort());
  });

  test('a connector that takes credentials has a base URL and webhooks; a key-less one has neither', () => {
    for (const t of carrierTypes()) {
      const c = carrierConnector(t);
      const remote = c.credentialFields.length > 0;
      expect(!!c.defaultBaseUrl, t).toBe(remote);
      expect(!!c.webhooks, t).toBe(remote);
    }
    expect(addressVerifierTypes()).toEqual(['EASYPOST']);
  });

  test('test keys and test labels come from the connectors', () => {
    expect(carrierConnector('EASYPOST').isTestKey('EZTK123')).toBe(true);
    expect(carrierConnector('EASYPOST').isTestKey('EZAK123')).toBe(false);
    expect(carrierConnector('SHIPPO').isTestKey('shippo_test_1')).toBe(true);
    expect(carrierConnector('SHIPPO').isTestKey('shippo_live_1')).toBe(false);
    expect(carrierConnector('TABLE').isTestKey(undefined)).toBe(true);
    expect(isTestLabel({ carrier_integration_type: 'TABLE', carrier_integration_id: 'x' })).toBe(true);
    expect(isTestLabel({ carrier_integration_type: 'EASYPOST', carrier_integration_id: 'x' })).toBe(false);
    expect(isTestLabel({ carrier_integration_type: 'GENERIC', carrier_integration_id: null })).toBe(false);
    expect(isTestLabel({ carrier_integration_type: null, carrier_integration_id: 'table' })).toBe(true);
  });
});
