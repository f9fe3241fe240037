// The exports area's door: what code outside src/domain/exports/ may import (test/unit/layers.test.ts).
export { RECORDS_PER_REQUEST, cursorAfterRecord, walkPages, type ExportPage } from './walk.js';
export { findRecordCreatedAt, type ExportedList } from './store.js';
