import type { Db } from '../db/types.js';

// Demo warehouse for `fos serve --demo`: filled in by the fulfillment workflow issue.
export async function loadDemo(_db: Db): Promise<void> {}
