import { transaction } from '../../db/tx.js';
import type { Db } from '../../db/types.js';
import type { BillableEvent } from '../../contract/rate-cards.js';
import { dbNow } from '../../domain/clock.js';
import { billEvents, delegationOf, type Billable } from '../../domain/charges/index.js';
import { linkDelegation, publishVersion } from '../../domain/charges/index.js';
import { generateInvoice } from '../../domain/invoices/index.js';

// The demo bills (issue 40 item 5, docs/billing.md): a versioned rate card with storage, pick,
// pack, packaging, shipping, receiving and returns fees, in force since the start of last month,
// a month of history billed by it (daily storage, a few shipments a day) and last month's draft
// invoice, so `fos invoices list` shows a real invoice on the first run.

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The demo card; its version as `fos rate-cards show "Acme Outdoor 3PL"` prints it. */
export const demoRateCard = (effective_at: string) => ({
  rate_card_name: 'Acme Outdoor 3PL',
  semantic_version: '1.0.0',
  effective_at,
  currency: 'USD' as const,
  note: 'Standard 3PL rates for Acme Outdoor',
  fees: [
    { id: 'storage', name: 'Storage per unit per day', event: 'STORAGE' as const, price: { type: 'PER_UNIT' as const, amount: 0.02 } },
    { id: 'receiving', name: 'Receiving per unit', event: 'RECEIVING' as const, price: { type: 'PER_UNIT' as const, amount: 0.25 } },
    { id: 'receiving-po', name: 'Purchase order handling', event: 'RECEIVING_PO' as const, price: { type: 'FLAT' as const, amount: 25 } },
    { id: 'pick', name: 'Pick fee', event: 'PICK' as const, price: { type: 'FIRST_ADDITIONAL' as const, first: 1.25, additional: 0.4 } },
    { id: 'pack', name: 'Pack fee', event: 'PACK' as const, price: { type: 'PER_ORDER' as const, amount: 0.85 } },
    { id: 'packaging', name: 'Carton', event: 'PACKAGING' as const, price: { type: 'FLAT' as const, amount: 0.6 } },
    {
      id: 'shipping',
      name: 'Postage plus 10%',
      event: 'SHIPPING' as const,
      price: { type: 'LABEL_MARKUP' as const, markup_percent: 10, minimum: 5 },
    },
    { id: 'returns', name: 'Returns processing', event: 'RETURN' as const, price: { type: 'PER_UNIT' as const, amount: 2.5 } },
  ],
});

interface DemoBilling {
  fulfillerTeamId: string;
  merchantTeamId: string;
  delegationId: string;
  warehouses: Array<{ id: string; name: string; units: number }>;
}

/** The card, published and assigned to the demo merchant before anything is received or shipped. */
export async function demoCard(db: Db, b: Omit<DemoBilling, 'warehouses'>) {
  const now = new Date(dbNow(db));
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const { view } = await publishVersion(db, b.fulfillerTeamId, demoRateCard(start.toISOString()));
  await linkDelegation(db, b.fulfillerTeamId, b.delegationId, view.rate_card_id);
}

/** Last month's shipments of the day (deterministic: the same demo every run). */
function shipments(date: Date, warehouses: DemoBilling['warehouses'], merchant: string): Billable[] {
  const n = date.getUTCDay() === 0 ? 0 : 2 + (date.getUTCDate() % 3);
  return Array.from({ length: n }, (_, i) => {
    const ref = `#H${date.getUTCDate().toString().padStart(2, '0')}${i + 1}`;
    const w = warehouses[i % warehouses.length];
    const units = 1 + ((date.getUTCDate() + i) % 4);
    const base: Omit<BillableEvent, 'event'> = { merchant_team_id: merchant, warehouse_id: w.id, units, lines: Math.min(units, 2) };
    const label = Math.round((7.45 + units * 1.3 + i * 0.8) * 100) / 100;
    const links = { warehouse_id: w.id, warehouse_name: w.name };
    const key = (e: string) => `${e}:demo:${day(date)}:${i}`;
    return [
      {
        key: key('SHIPPING'),
        event: { ...base, event: 'SHIPPING' as const, label_cost: label, carrier: 'usps' },
        name: `Shipping ${ref}`,
        links,
      },
      { key: key('PICK'), event: { ...base, event: 'PICK' as const }, name: `Pick ${ref}`, links },
      { key: key('PACK'), event: { ...base, event: 'PACK' as const }, name: `Pack ${ref}`, links },
      { key: key('PACKAGING'), event: { ...base, event: 'PACKAGING' as const }, name: `Packaging ${ref}`, links },
    ];
  }).flat();
}

/** Last month's charges, day by day, and its draft invoice. */
export async function demoHistory(db: Db, b: DemoBilling) {
  const now = new Date(dbNow(db));
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  for (let d = new Date(first); d <= last; d = new Date(d.getTime() + 86_400_000)) {
    const at = new Date(d.getTime() + 12 * 3_600_000);
    const storage: Billable[] = b.warehouses.map((w) => ({
      key: `STORAGE:demo:${day(d)}:${w.id}`,
      event: { event: 'STORAGE', merchant_team_id: b.merchantTeamId, warehouse_id: w.id, units: w.units },
      name: `Storage ${w.name} ${day(d)}`,
      links: { warehouse_id: w.id, warehouse_name: w.name, rate_period: 'DAILY' },
    }));
    await transaction(db, async (tx) => {
      const delegation = await delegationOf(tx, b.merchantTeamId, b.fulfillerTeamId);
      await billEvents(tx, delegation, [...storage, ...shipments(d, b.warehouses, b.merchantTeamId)], at);
    });
  }
  return generateInvoice(db, b.fulfillerTeamId, { merchant_team_id: b.merchantTeamId, period_start: day(first), period_end: day(last) });
}
