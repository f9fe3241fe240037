// The automation-rules area's door: what code outside src/domain/automation-rules/ may import (test/unit/layers.test.ts).
export { applyRules, applyRulesToOpenOrders, applyRulesToOrder, intakeDecision } from './apply.js';
export { createRule, deleteRule, getRule, listRuleVersions, listRules, updateRule } from './rules.js';
export { testRules } from './test.js';
