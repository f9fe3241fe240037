// Automation rules evaluation (issue 41 item 3): 100 rules of mixed conditions (destination,
// weight, tags, SKUs, nested any/not), compiled once per version, evaluated over 10,000 varied
// orders in memory (dist/domain/automation-rules). Figure: ms per order, beside the 0.2 ms target.
import path from 'node:path';
import { ROOT } from './lib.mjs';

const dist = (p) => import(path.join(ROOT, 'dist', p));

function ruleAt(i) {
  const kinds = [
    { country: ['US'], weight: { lte: 450 + i } },
    { any: [{ state: ['CA', 'OR'] }, { zip_prefix: [`9${i % 10}`] }] },
    { tags_any: [`tag-${i}`, 'wholesale'], not: { shop_type: ['AMAZON'] } },
    { skus_any: [`SKU-${i}`, `SKU-${i + 1}`], item_count: { gte: 2 } },
    { all: [{ order_total: { gte: i } }, { shipping_method: ['Express'] }, { not: { priority: ['LOW'] } }] },
    { residential: true, deliver_by: { within_hours: 24 + i }, any: [{ longest_side: { gte: 300 } }, { volume: { gte: 5000 } }] },
  ];
  return {
    id: `r${i}`,
    name: `rule ${i}`,
    version: 1,
    enabled: true,
    position: i + 1,
    merchant_team_id: null,
    conditions: kinds[i % kinds.length],
    actions: { carrier_id: `c${i % 7}`, add_tags: [`auto-${i % 5}`] },
  };
}

const NOW = Date.parse('2026-06-01T12:00:00Z');

export async function rulesBench({ orders = 10_000 } = {}) {
  const [{ compiled }, { evaluate }, { factsOf }] = await Promise.all([
    dist('domain/automation-rules/compile.js'),
    dist('domain/automation-rules/evaluate.js'),
    dist('domain/automation-rules/facts.js'),
  ]);
  const rules = Array.from({ length: 100 }, (_, i) => compiled(ruleAt(i)));
  const facts = Array.from({ length: 1000 }, (_, i) =>
    factsOf({
      merchant_team_id: 'm',
      shop_type: i % 3 ? 'SHOPIFY' : 'AMAZON',
      tags: [`tag-${i % 150}`],
      shipping_address: { country: i % 4 ? 'US' : 'CA', state: ['CA', 'NY', 'OR', 'TX'][i % 4], zip: `${10000 + i * 7}` },
      total_price: i % 200,
      shipping_method: i % 2 ? 'Express' : 'Ground',
      priority: 'NORMAL',
      address_residential: i % 2 ? 'RESIDENTIAL' : 'UNKNOWN',
      deliver_by: i % 5 ? new Date(NOW + (i % 96) * 3_600_000) : null,
      now: NOW,
      lines: [
        { sku: `SKU-${i % 120}`, quantity: 1 + (i % 3), weight: 100 + (i % 500), dims: [100 + (i % 400), 100, 50] },
        { sku: `SKU-${(i * 7) % 120}`, quantity: 1, weight: 50 },
      ],
    }),
  );
  const none = new Set();
  for (let i = 0; i < 2000; i++) evaluate(rules, facts[i % facts.length], none); // warm-up
  const t0 = process.hrtime.bigint();
  let decisions = 0;
  for (let i = 0; i < orders; i++) decisions += evaluate(rules, facts[i % facts.length], none).decisions.length;
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { orders, rules: rules.length, msPerOrder: ms / orders, decisionsPerOrder: decisions / orders };
}
