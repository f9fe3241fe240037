import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/context.js';
import { ENUMS, canonicalEnum } from '../../src/cli/enums.js';
import { testIOStreams } from '../../src/cli/iostreams.js';
import { buildBody, parseKeyPath, setPath } from '../../src/cli/shared/body.js';
import { checkBody, parseFlagValue, type FieldSpec } from '../../src/cli/shared/flags.js';

describe('enums', () => {
  it('hold the spec values', () => {
    expect(ENUMS.priority).toEqual(['LOW', 'NORMAL', 'HIGH', 'CRITICAL']);
    expect(ENUMS.weight_unit).toEqual(['G', 'LB']);
    expect(ENUMS.measurement_unit).toEqual(['MM', 'IN']);
    expect(ENUMS.rate_strategy).toEqual(['CHEAPEST', 'FASTEST', 'CHEAPEST_WITHIN_DAYS']);
    expect(ENUMS.product_type).toEqual(['STANDARD', 'VIRTUAL_BUNDLE', 'ASSEMBLY']);
    expect(ENUMS.permission).toContain('MANAGE_API_KEYS');
  });

  it('match case-insensitively and name the allowed values otherwise', () => {
    expect(canonicalEnum('priority', ' critical', ENUMS.priority)).toBe('CRITICAL');
    expect(() => canonicalEnum('priority', 'urgent', ENUMS.priority)).toThrow(
      'invalid priority "urgent": allowed values are LOW, NORMAL, HIGH, CRITICAL',
    );
  });
});

describe('flag values', () => {
  const spec = (s: Partial<FieldSpec>): FieldSpec => ({ key: 'k', description: '', ...s });

  it('parse ints, numbers, booleans, dates, enums and lists', () => {
    expect(parseFlagValue(spec({ type: 'int', min: 1, max: 100 }), '20')).toBe(20);
    expect(() => parseFlagValue(spec({ type: 'int' }), '2.5')).toThrow('whole number');
    expect(() => parseFlagValue(spec({ type: 'int', max: 100 }), '101')).toThrow('at most 100');
    expect(parseFlagValue(spec({ type: 'number' }), '0.25')).toBe(0.25);
    expect(() => parseFlagValue(spec({ type: 'number' }), '')).toThrow('a number');
    expect(parseFlagValue(spec({ type: 'boolean' }), 'No')).toBe(false);
    expect(() => parseFlagValue(spec({ type: 'boolean' }), 'maybe')).toThrow('true or false');
    expect(() => parseFlagValue(spec({ type: 'date' }), 'soon')).toThrow('ISO 8601');
    expect(parseFlagValue(spec({ type: 'enum', values: ENUMS.weight_unit }), 'lb')).toBe('LB');
    expect(() => parseFlagValue(spec({ type: 'enum', values: ENUMS.weight_unit }), 'kg')).toThrow('allowed values are G, LB.');
    expect(parseFlagValue(spec({ type: 'list', values: ENUMS.priority }), 'low, high', ['NORMAL'])).toEqual(['NORMAL', 'LOW', 'HIGH']);
  });

  it('checkBody canonicalises enums that came through --field and enforces required keys on create', () => {
    const specs: FieldSpec[] = [
      { key: 'name', description: '', required: true },
      { key: 'config.unit', flag: '--unit', description: '', values: ENUMS.weight_unit },
    ];
    const body: Record<string, unknown> = { name: 'x', config: { unit: 'g' } };
    checkBody(body, specs, { create: true });
    expect(body).toEqual({ name: 'x', config: { unit: 'G' } });
    expect(() => checkBody({ config: { unit: 'G' } }, specs, { create: true })).toThrow('missing name: pass --name');
    expect(() => checkBody({ config: { unit: 'KG' } }, specs)).toThrow('invalid config.unit "KG": allowed values are G, LB');
  });
});

describe('body building', () => {
  const ctx = () => createContext({ io: testIOStreams({ stdin: '{"from":"stdin"}' }), env: {} });

  it('parses dotted and bracket keys', () => {
    const o: Record<string, unknown> = {};
    setPath(o, 'a.b', 1);
    setPath(o, 'a[c]', 2);
    setPath(o, 'list[]', 'x');
    setPath(o, 'list[]', 'y');
    setPath(o, 'items[][sku]', 'A');
    expect(o).toEqual({ a: { b: 1, c: 2 }, list: ['x', 'y'], items: [{ sku: 'A' }] });
    expect(() => parseKeyPath('a..')).toThrow('invalid field name');
    expect(() => parseKeyPath('[]')).toThrow('invalid field name');
  });

  it('merges --data, flags and fields in that order; -F is typed, -f is not', async () => {
    const body = await buildBody(
      ctx(),
      {
        data: '{"a":1,"nested":{"keep":true,"x":0}}',
        field: ['n=12', 'f=1.5e2', 'b=true', 'z=null', 'arr=[1,2]', 'nested.x=2'],
        rawField: ['s=12'],
      },
      { a: 'flag', nested: { y: 1 } },
    );
    expect(body).toEqual({ a: 'flag', nested: { keep: true, x: 2, y: 1 }, n: 12, f: 150, b: true, z: null, arr: [1, 2], s: '12' });
  });

  it('reads --data - from stdin and rejects non-objects', async () => {
    expect(await buildBody(ctx(), { data: '-' })).toEqual({ from: 'stdin' });
    await expect(buildBody(ctx(), { data: '[1]' })).rejects.toThrow('--data: expected a JSON object');
    await expect(buildBody(ctx(), { data: '{' })).rejects.toThrow('--data: invalid JSON');
    await expect(buildBody(ctx(), { field: ['novalue'] })).rejects.toThrow('--field expects key=value');
    await expect(buildBody(ctx(), { data: '@/nonexistent/file.json' })).rejects.toThrow('cannot read /nonexistent/file.json: ENOENT');
  });
});
