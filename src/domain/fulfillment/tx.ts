// The fulfillment area's writes run through src/db/tx.ts `transaction` (one retry policy for
// every area); `writeTx` stays as its name here until the areas' imports move (issue 24).
// Lock order of this area, so racers never deadlock: fulfillment order -> package -> FO line
// items -> order line items -> inventory levels (each sorted by id) -> order (docs/fulfillment.md).
export { transaction as writeTx } from '../../db/tx.js';
