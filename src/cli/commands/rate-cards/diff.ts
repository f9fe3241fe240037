// `fos rate-cards diff`: the changes between two versions of a card, fee by fee (matched by id).

interface Version {
  semantic_version: string;
  effective_at: string;
  currency: string;
  note?: string | null;
  fees: Array<{ id: string } & Record<string, unknown>>;
}

export interface Change {
  what: string;
  change: 'added' | 'removed' | 'changed';
  from: unknown;
  to: unknown;
}

/** JSON with sorted keys: two fees are the same when their canonical forms are. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v ?? null);

export function diffVersions(a: Version, b: Version): Change[] {
  const out: Change[] = [];
  for (const k of ['semantic_version', 'effective_at', 'currency', 'note'] as const) {
    if ((a[k] ?? null) !== (b[k] ?? null)) out.push({ what: k, change: 'changed', from: a[k] ?? null, to: b[k] ?? null });
  }
  const before = new Map(a.fees.map((f) => [f.id, f]));
  const after = new Map(b.fees.map((f) => [f.id, f]));
  for (const [id, f] of before) {
    const g = after.get(id);
    if (!g) out.push({ what: `fee ${id}`, change: 'removed', from: f, to: null });
    else if (canonical(f) !== canonical(g)) out.push({ what: `fee ${id}`, change: 'changed', from: f, to: g });
  }
  for (const [id, g] of after) if (!before.has(id)) out.push({ what: `fee ${id}`, change: 'added', from: null, to: g });
  // The order of the fees decides which of them wins: say so when it moved.
  const order = (v: Version) => v.fees.map((f) => f.id).filter((id) => before.has(id) && after.has(id));
  if (order(a).join() !== order(b).join()) out.push({ what: 'fee order', change: 'changed', from: order(a), to: order(b) });
  return out;
}
