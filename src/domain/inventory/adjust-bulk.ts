import type { PutawaySuggestion } from '../locations/index.js';
import type { Provider, TxClient } from '../../db/types.js';
import type { AdjustmentReason } from '../../contract/inventory-enums.js';
import { statementsOf } from '../../db/statements.js';
import { applyToLevels, levelsFor, type LevelChange } from './ledger-bulk.js';
import { lockLevels, onHandOf } from './store/bulk.js';
import type { LevelRef, MovementInfo } from './ledger.js';

// The lines of an adjustment without a bin, in bulk (issue 29 item 3): levels created and locked
// in id order, counts read once under those locks (so each count's compare-and-set on the on_hand
// it read always holds), then every line through the bulk ledger (ledger-bulk.ts) in a handful
// of statements. adjust.ts keeps the line-by-line path for counts of one bin.

export interface BulkAdjustment {
  provider: Provider;
  warehouseId: string;
  reason: AdjustmentReason;
  force: boolean;
  info: Omit<MovementInfo, 'kind'>;
  lines: { delta?: number; counted?: number }[];
  products: { id: string; sku: string | null }[];
  deltasFor: (
    reason: AdjustmentReason,
    delta: number,
    i: number,
  ) => Partial<Record<'on_hand' | 'committed' | 'unavailable' | 'on_order', number>>;
  /** Where units added to a product go (putaway suggestions); units taken leave by the pick order. */
  putaway: Map<string, PutawaySuggestion>;
}

/** The levels (line order) and each line's applied delta; throws through `refused` for the first line a guard refused. */
export async function adjustInBulk(
  tx: TxClient,
  a: BulkAdjustment,
  refused: (level: LevelRef, i: number) => Promise<Error>,
): Promise<{ levels: LevelRef[]; applied: { delta: number; counted: number | null }[] }> {
  const st = statementsOf(tx, a.provider);
  const ids = await levelsFor(
    tx,
    a.provider,
    a.warehouseId,
    a.products.map((p) => p.id),
  );
  const levels = a.products.map((p) => ({ id: ids.get(p.id)!, product_id: p.id, warehouse_id: a.warehouseId, sku: p.sku }));
  const counts = a.lines.some((l) => l.counted !== undefined);
  if (counts)
    await lockLevels(
      st,
      levels.map((l) => l.id),
    );
  const onHand = counts
    ? await onHandOf(
        st,
        levels.map((l) => l.id),
      )
    : new Map<string, number>();
  const applied = a.lines.map((l, i) =>
    l.counted !== undefined ? { delta: l.counted - onHand.get(levels[i].id)!, counted: l.counted } : { delta: l.delta!, counted: null },
  );
  const into = (i: number, onHand: number) => {
    const s = onHand > 0 ? a.putaway.get(a.products[i].id) : undefined;
    return s ? { placement: { location_id: s.location_id } } : {};
  };
  const changes: LevelChange[] = a.lines.map((l, i) => {
    if (l.counted !== undefined) {
      const delta = applied[i].delta;
      return {
        level: levels[i],
        deltas: { on_hand: delta },
        info: { ...a.info, kind: 'COUNTED', ...into(i, delta) },
        sellable: delta < 0 && !a.force,
        onHandIs: onHand.get(levels[i].id)!,
      };
    }
    const deltas = a.deltasFor(a.reason, l.delta!, i);
    const shrinksSellable = (deltas.on_hand ?? 0) - (deltas.unavailable ?? 0) < 0;
    return {
      level: levels[i],
      deltas,
      info: { ...a.info, kind: 'ADJUSTED', ...into(i, deltas.on_hand ?? 0) },
      sellable: shrinksSellable && !a.force,
    };
  });
  const i = await applyToLevels(tx, a.provider, changes);
  if (i >= 0) throw await refused(levels[i], i);
  return { levels, applied };
}
