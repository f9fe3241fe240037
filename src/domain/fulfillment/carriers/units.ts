// Weight conversions for rating (packages are in G or LB; rate rows in their own unit).
const GRAMS: Record<string, number> = { G: 1, KG: 1000, LB: 453.59237, OZ: 28.349523125 };

export function convertWeight(value: number, from: string, to: string): number {
  const f = GRAMS[from.toUpperCase()];
  const t = GRAMS[to.toUpperCase()];
  if (!f || !t) throw new Error(`cannot convert weight from ${from} to ${to}`);
  return Math.round(((value * f) / t) * 1e6) / 1e6;
}

export const money = (n: number) => Math.round(n * 100) / 100;
