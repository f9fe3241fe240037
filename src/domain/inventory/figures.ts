// The figures every inventory answer shows for a level: the four stored buckets and
// available = on_hand - committed - unavailable (negative only after a forced adjustment).

export interface LevelFigures {
  on_hand: number;
  committed: number;
  unavailable: number;
  on_order: number;
  available: number;
}

export const levelFigures = (l: { on_hand: number; committed: number; unavailable: number; on_order: number }): LevelFigures => ({
  on_hand: l.on_hand,
  committed: l.committed,
  unavailable: l.unavailable,
  on_order: l.on_order,
  available: l.on_hand - l.committed - l.unavailable,
});
