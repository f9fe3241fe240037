// The areas that answer lower areas' hooks and slots (src/domain/hooks.ts). Each subscribes in its
// own door (index.ts); importing them here makes sure a process that serves the API has them
// wired even if no route of theirs were loaded (src/server/app.ts imports this file).
//   inventory.stockFreed  -> orders (backorders take freed stock)
//   orders.intakeRules    -> automation-rules (the rules' decision at intake)
import './orders/index.js';
import './automation-rules/index.js';
