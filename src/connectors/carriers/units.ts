// Weight and length conversions for rating (packages are in G or LB, MM or IN; rate rows in their
// own unit; carrier platforms in ounces and inches).
const GRAMS: Record<string, number> = { G: 1, KG: 1000, LB: 453.59237, OZ: 28.349523125 };
const MILLIMETRES: Record<string, number> = { MM: 1, CM: 10, IN: 25.4 };

export function convertWeight(value: number, from: string, to: string): number {
  const f = GRAMS[from.toUpperCase()];
  const t = GRAMS[to.toUpperCase()];
  if (!f || !t) throw new Error(`cannot convert weight from ${from} to ${to}`);
  return Math.round(((value * f) / t) * 1e6) / 1e6;
}

export function convertLength(value: number, from: string, to: string): number {
  const f = MILLIMETRES[from.toUpperCase()];
  const t = MILLIMETRES[to.toUpperCase()];
  if (!f || !t) throw new Error(`cannot convert length from ${from} to ${to}`);
  return Math.round(((value * f) / t) * 100) / 100;
}

export const money = (n: number) => Math.round(n * 100) / 100;

/** A platform's decimal string ("7.58") as a number; null when absent or not a number. */
export const amountOf = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
