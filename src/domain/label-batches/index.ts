// The label-batches area's door: what code outside src/domain/label-batches/ may import (test/unit/layers.test.ts).
export { createLabelBatch } from './create.js';
export { runDueBatches } from './run.js';
export { listLabelBatches, loadLabelBatch } from './view.js';
