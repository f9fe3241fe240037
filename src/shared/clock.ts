// The server's idea of "now" for what runs by the calendar (period closes, daily billing runs).
// Tests inject a clock (AppConfig.clock); `fos serve` reads FOS_NOW here and nowhere else, so the
// period close can be exercised from outside: FOS_NOW=2026-02-01T00:00:05Z starts the clock at that
// instant and it runs on from there at the real pace (a frozen clock would also freeze rate-limit
// windows and lock timeouts).

/** Epoch milliseconds, as AppConfig.clock gives them. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/**
 * The clock FOS_NOW asks for (an ISO 8601 time), or undefined when it is unset or empty.
 * An unparsable value is an error: a server must not quietly bill on the wrong date.
 */
export function clockFromEnv(env: NodeJS.ProcessEnv = process.env, real: Clock = systemClock): Clock | undefined {
  const raw = env.FOS_NOW?.trim();
  if (!raw) return undefined;
  const at = Date.parse(raw);
  if (!Number.isFinite(at)) throw new Error(`FOS_NOW=${raw} is not an ISO 8601 time (e.g. 2026-02-01T00:00:05Z).`);
  const offset = at - real();
  return () => real() + offset;
}

/** The clock as a Date. */
export const nowOf = (clock: Clock | undefined): Date => new Date((clock ?? systemClock)());
