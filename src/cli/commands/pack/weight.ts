// The weight a packer types at the station's prompt (issue 35): a number in the prompt's unit, or a
// number with its unit ("1.2kg", "1.2 kg", "500g", "2 lb", "12oz"), converted to the unit the
// station sends (the team's measurement system: G for METRIC, LB for IMPERIAL).

const GRAMS: Record<string, number> = { g: 1, kg: 1000, lb: 453.59237, lbs: 453.59237, oz: 28.349523125 };
const WEIGHT = /^(\d+(?:[.,]\d+)?)\s*([a-z]*)$/i;

/** The weight in `unit` (G or LB), or null when the text is not a weight. */
export function parseWeight(text: string, unit: 'G' | 'LB'): number | null {
  const m = WEIGHT.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1].replace(',', '.'));
  const given = m[2].toLowerCase();
  if (!given) return n;
  const g = GRAMS[given];
  if (g === undefined || !Number.isFinite(n)) return null;
  const out = (n * g) / GRAMS[unit.toLowerCase()];
  return Math.round(out * 1000) / 1000;
}
