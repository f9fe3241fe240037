// Billing periods (docs/invoices.md): whole UTC days, written YYYY-MM-DD, both ends inclusive.
// WEEKLY runs Monday to Sunday, SEMI_MONTHLY the 1st to the 15th and the 16th to the month's end,
// MONTHLY the calendar month.

export const INVOICE_PERIODS = ['WEEKLY', 'SEMI_MONTHLY', 'MONTHLY'] as const;
export type InvoicePeriod = (typeof INVOICE_PERIODS)[number];

export interface Period {
  start: string;
  end: string;
}

const DAY = 86_400_000;
export const day = (d: Date) => d.toISOString().slice(0, 10);
export const dayStart = (ymd: string) => new Date(`${ymd}T00:00:00.000Z`);
export const addDays = (ymd: string, n: number) => day(new Date(dayStart(ymd).getTime() + n * DAY));
/** The instant a period stops: midnight UTC after its last day. */
export const periodEndsAt = (p: Period) => dayStart(addDays(p.end, 1));

export function isDay(s: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(dayStart(s).getTime()) && day(dayStart(s)) === s;
}

/** The period of `kind` holding the day `ymd`. */
export function periodOf(kind: InvoicePeriod, ymd: string): Period {
  const d = dayStart(ymd);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const lastOfMonth = day(new Date(Date.UTC(y, m + 1, 0)));
  if (kind === 'MONTHLY') return { start: day(new Date(Date.UTC(y, m, 1))), end: lastOfMonth };
  if (kind === 'SEMI_MONTHLY') {
    return d.getUTCDate() <= 15
      ? { start: day(new Date(Date.UTC(y, m, 1))), end: day(new Date(Date.UTC(y, m, 15))) }
      : { start: day(new Date(Date.UTC(y, m, 16))), end: lastOfMonth };
  }
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  const start = addDays(ymd, -sinceMonday);
  return { start, end: addDays(start, 6) };
}

/**
 * The period the close works on next, from the first day not yet closed: the rest of that day's
 * period (a period changed from MONTHLY to WEEKLY mid-month closes the part left, then whole weeks).
 */
export function nextPeriodFrom(kind: InvoicePeriod, firstOpenDay: string): Period {
  return { start: firstOpenDay, end: periodOf(kind, firstOpenDay).end };
}
