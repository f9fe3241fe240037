import { describe, expect, test } from 'vitest';
import { PACKAGE_CONFIG, resolveConfig } from '../../src/domain/fulfillment/package-config.js';
import { flatAddress } from '../../src/domain/fulfillment/lookups.js';

// The package view's helpers on the hot path of every package response (issue 36 item 3): made
// cheaper without a change in what they return.

describe('resolveConfig: defaults <- inherited <- explicit layers', () => {
  test('every key at its default, in PACKAGE_CONFIG order, when nothing is given', () => {
    const out = resolveConfig(null);
    expect(Object.keys(out)).toEqual(Object.keys(PACKAGE_CONFIG));
    expect(out.incoterm).toBe('FAS');
    expect(out.insurance_policy).toEqual({ mode: 'none' });
  });

  test('unknown keys and values of the wrong kind are ignored; nulls clear only in explicit layers', () => {
    const out = resolveConfig({ incoterm: 'DAP', eel_pfc: null, bogus: 1 }, { saturday_delivery: 'yes', eel_pfc: 'X' }, { incoterm: null });
    expect(out).toMatchObject({ incoterm: null, eel_pfc: 'X', saturday_delivery: false });
    expect('bogus' in out).toBe(false);
    expect(Object.keys(out)).toEqual(Object.keys(PACKAGE_CONFIG));
    expect(resolveConfig({ incoterm: 'DAP' }, [], 'x', 5).incoterm).toBe('DAP');
  });

  test('a layer holding __proto__ leaves the result a plain object', () => {
    const out = resolveConfig(null, JSON.parse('{"__proto__": null, "incoterm": "DDP"}'));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.incoterm).toBe('DDP');
  });
});

describe('flatAddress', () => {
  test('prefixed fields, empty text as null, each read from its source field when one is named', () => {
    const a = { name: 'A', address1: '1 Main', address2: '', zip: 73301 };
    expect(flatAddress('to_', a, ['name', 'street1', 'street2', 'zip'], ['name', 'address1', 'address2', 'zip'])).toEqual({
      to_name: 'A',
      to_street1: '1 Main',
      to_street2: null,
      to_zip: '73301',
    });
    expect(flatAddress('from_', null, ['name', 'city'])).toEqual({ from_name: null, from_city: null });
    expect(flatAddress('x_', a, ['name'])).toEqual({ x_name: 'A' });
  });
});
