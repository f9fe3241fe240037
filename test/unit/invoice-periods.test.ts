import { describe, expect, it } from 'vitest';
import { nextPeriodFrom, periodEndsAt, periodOf } from '../../src/domain/charges/periods.js';
import { clockFromEnv } from '../../src/shared/clock.js';

// Billing periods (docs/invoices.md) and the FOS_NOW clock (src/shared/clock.ts).

describe('periods', () => {
  it('WEEKLY runs Monday to Sunday, across a year end', () => {
    expect(periodOf('WEEKLY', '2026-01-01')).toEqual({ start: '2025-12-29', end: '2026-01-04' }); // a Thursday
    expect(periodOf('WEEKLY', '2026-01-05')).toEqual({ start: '2026-01-05', end: '2026-01-11' }); // a Monday
    expect(periodOf('WEEKLY', '2026-01-11')).toEqual({ start: '2026-01-05', end: '2026-01-11' }); // a Sunday
  });

  it('SEMI_MONTHLY splits at the 15th; MONTHLY ends on the month last day (leap years too)', () => {
    expect(periodOf('SEMI_MONTHLY', '2026-02-15')).toEqual({ start: '2026-02-01', end: '2026-02-15' });
    expect(periodOf('SEMI_MONTHLY', '2026-02-16')).toEqual({ start: '2026-02-16', end: '2026-02-28' });
    expect(periodOf('SEMI_MONTHLY', '2028-02-20')).toEqual({ start: '2028-02-16', end: '2028-02-29' });
    expect(periodOf('MONTHLY', '2026-12-31')).toEqual({ start: '2026-12-01', end: '2026-12-31' });
  });

  it('a period ends at midnight UTC after its last day; a changed period closes the remainder first', () => {
    expect(periodEndsAt({ start: '2026-01-01', end: '2026-01-31' }).toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(nextPeriodFrom('WEEKLY', '2026-01-07')).toEqual({ start: '2026-01-07', end: '2026-01-11' });
  });
});

describe('FOS_NOW', () => {
  it('starts the clock at that instant and lets it run on', () => {
    let real = 1_000_000;
    const clock = clockFromEnv({ FOS_NOW: '2026-02-01T00:00:05Z' }, () => real)!;
    expect(new Date(clock()).toISOString()).toBe('2026-02-01T00:00:05.000Z');
    real += 60_000;
    expect(new Date(clock()).toISOString()).toBe('2026-02-01T00:01:05.000Z');
  });

  it('is no clock when unset or empty, and an error when it is not a time', () => {
    expect(clockFromEnv({})).toBeUndefined();
    expect(clockFromEnv({ FOS_NOW: ' ' })).toBeUndefined();
    expect(() => clockFromEnv({ FOS_NOW: 'yesterday' })).toThrow('not an ISO 8601 time');
  });
});
