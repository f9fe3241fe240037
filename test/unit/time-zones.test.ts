import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, localDay, startOfLocalDay } from '../../src/shared/time-zones.js';

// Where a warehouse's day begins and ends (daily storage, docs/billing.md "Time zones"): the
// instant of local midnight across offsets, half-hour zones and daylight-saving changes, including
// one that skips midnight itself.

describe('time zones', () => {
  it.each([
    ['2026-03-01', 'UTC', '2026-03-01T00:00:00.000Z'],
    ['2026-03-01', 'Etc/GMT+8', '2026-03-01T08:00:00.000Z'],
    ['2026-03-01', 'Asia/Kolkata', '2026-02-28T18:30:00.000Z'],
    ['2026-03-01', 'Pacific/Kiritimati', '2026-02-28T10:00:00.000Z'],
    ['2026-03-08', 'America/Los_Angeles', '2026-03-08T08:00:00.000Z'], // the day clocks spring forward
    ['2026-03-09', 'America/Los_Angeles', '2026-03-09T07:00:00.000Z'],
    ['2026-11-01', 'America/Los_Angeles', '2026-11-01T07:00:00.000Z'], // the day they fall back
    ['2026-11-02', 'America/Los_Angeles', '2026-11-02T08:00:00.000Z'],
    ['2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z'], // midnight skipped: the day starts at 01:00
  ])('%s in %s begins at %s, and the instant before is the day before', (day, zone, iso) => {
    const start = startOfLocalDay(day, zone);
    expect(start.toISOString()).toBe(iso);
    expect(localDay(start, zone)).toBe(day);
    expect(localDay(new Date(start.getTime() - 1), zone) < day).toBe(true);
  });

  it('names zones canonically and refuses unknown ones', () => {
    expect(canonicalTimeZone('america/los_angeles')).toBe('America/Los_Angeles');
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(canonicalTimeZone('Etc/GMT+8')).toBe('Etc/GMT+8');
    expect(canonicalTimeZone('Mars/Olympus')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
  });
});
