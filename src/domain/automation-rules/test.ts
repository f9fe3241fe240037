import type { Static } from 'typebox';
import type { TestRulesBody } from '../../contract/automation-rules.js';
import type { Db, TxClient } from '../../db/types.js';
import { invalid, notFound } from '../errors.js';
import { loadRules } from './apply.js';
import { evaluate } from './evaluate.js';
import { factsOf, loadOrderFacts } from './facts.js';
import { dbNow } from '../clock.js';
import { personConfig } from './apply.js';

// POST /v1/ops/automation-rules/test: which rules would match a stored or a hypothetical order
// and what they would set, without writing anything.

export async function testRules(db: Db, teamId: string, body: Static<typeof TestRulesBody>) {
  if (body.order_id && body.order) throw invalid('body', 'give order_id or order, not both');
  const tx = db.prisma as unknown as TxClient;
  const rules = await loadRules(tx, teamId);
  const now = dbNow(db);
  let facts;
  let person: string[] = [];
  if (body.order_id) {
    const loaded = await loadOrderFacts(tx, teamId, body.order_id, now);
    if (!loaded) throw notFound('Order', body.order_id);
    facts = loaded.facts;
    const sel = (loaded.order.carrier_selection ?? {}) as { person_set?: string[] };
    person = [...(sel.person_set ?? []), ...personConfig(loaded.order.config, sel)];
  } else {
    const o = body.order ?? {};
    facts = factsOf({
      ...o,
      now,
      lines: (o.line_items ?? []).map((l) => ({
        sku: l.sku,
        quantity: l.quantity,
        weight: l.weight ?? 0,
        dims: [l.length ?? 0, l.width ?? 0, l.height ?? 0],
      })),
    });
  }
  const out = evaluate(rules, facts, new Set(person));
  return {
    decisions: out.decisions,
    result: {
      ...out.selection,
      tags: out.tags,
      ...(out.priority ? { priority: out.priority } : {}),
      holds: out.holds,
      ...(Object.keys(out.config).length ? { config: out.config } : {}),
      ...(out.route ? { warehouse_id: out.route.warehouse_id, warehouse_only: out.route.only } : {}),
    },
  };
}
