// The scan-forms area's door: what code outside src/domain/scan-forms/ may import (test/unit/layers.test.ts).
export { createScanForm } from './create.js';
export { listScanForms, loadScanForm } from './view.js';
