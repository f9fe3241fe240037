// The orders area's writes run through src/db/tx.ts `transaction` (one retry policy for every
// area); `inTransaction` stays as its name here until the areas' imports move (issue 24).
export { transaction as inTransaction, type TxOptions } from '../../db/tx.js';
