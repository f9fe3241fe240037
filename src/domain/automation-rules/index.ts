// The automation-rules area's door: what code outside src/domain/automation-rules/ may import (test/unit/layers.test.ts).
import { intakeRules } from '../orders/index.js';
import { applyRules, intakeDecision } from './apply.js';
import type { Outcome } from './evaluate.js';

export { applyRulesToOpenOrders, applyRulesToOrder } from './apply.js';
export { createRule, deleteRule, getRule, listRuleVersions, listRules, updateRule } from './rules.js';
export { testRules } from './test.js';

// Answers (src/domain/hooks.ts): the orders area asks for the rules' decision at intake.
intakeRules.answer({
  decide: intakeDecision,
  // The decision handed back is the Outcome decide returned for this order.
  apply: (tx, teamId, orderId, now, decided) => applyRules(tx, teamId, orderId, 'INTAKE', now, decided as Outcome | null),
});
