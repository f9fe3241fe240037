// A warehouse's day in its own time zone (IANA names, through the runtime's Intl data): which
// local day an instant falls on, and the instant a local day begins. Daily storage
// (docs/billing.md "Storage") takes a warehouse's day when its local midnight has passed.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/**
 * The runtime's canonical name of a time zone (`america/los_angeles` and `US/Pacific` ->
 * `America/Los_Angeles`; `UTC`, `Etc/GMT+8`), or null for a name it does not know.
 */
export function canonicalTimeZone(zone: string): string | null {
  if (!zone || zone.length > 64) return null;
  try {
    return formatterOf(zone).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The zone's wall clock at `at`, as if it were UTC (epoch ms). */
function wallClock(at: number, zone: string): number {
  const parts = Object.fromEntries(
    formatterOf(zone)
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  return Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
}

/** The local day (YYYY-MM-DD) in `zone` holding the instant `at`. */
export function localDay(at: Date, zone: string): string {
  return new Date(wallClock(at.getTime(), zone)).toISOString().slice(0, 10);
}

/**
 * The instant the local day `ymd` begins in `zone` (its midnight; where a DST change skips
 * midnight, the first local time after it). Found by correcting a guess by the zone's offset twice.
 */
export function startOfLocalDay(ymd: string, zone: string): Date {
  const wall = Date.parse(`${ymd}T00:00:00Z`);
  let at = wall;
  for (let i = 0; i < 2; i++) at = wall - (wallClock(at, zone) - at);
  // A skipped midnight lands the guess on the previous day: step to the first instant of `ymd`.
  while (localDay(new Date(at), zone) < ymd) at += 3_600_000;
  return new Date(at);
}
