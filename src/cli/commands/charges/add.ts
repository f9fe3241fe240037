import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

/** `fos charges add`: ad-hoc work or receiving hours, posted with a note (docs/billing.md). */
export default function chargesAdd(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/charges.js')).ChargeSchema),
    name: 'add',
    description: 'Charge a merchant for ad-hoc work or receiving hours, with a note (priced by the rate card, or --unit-amount)',
    method: 'POST',
    mode: 'create',
    path: () => '/ops/charges/ad-hoc',
    fields: [
      { key: 'merchant_team_id', flag: '--merchant', arg: 'name|id', description: 'the merchant billed', required: true, ref: 'merchant' },
      { key: 'name', flag: '--name', description: 'what the merchant sees on the invoice', required: true },
      { key: 'note', flag: '--note', arg: 'text', description: 'why (kept as the charge description)', required: true },
      { key: 'quantity', flag: '--quantity', type: 'number', min: 0, description: 'hours or units', required: true },
      {
        key: 'event',
        flag: '--kind',
        arg: 'kind',
        type: 'enum',
        values: ['AD_HOC', 'RECEIVING_HOURS'],
        description: 'AD_HOC (special projects, default) or RECEIVING_HOURS',
      },
      { key: 'unit_amount', flag: '--unit-amount', type: 'number', min: 0, description: "price per unit (default: the card's fee)" },
      {
        key: 'purchase_order_id',
        flag: '--purchase-order',
        arg: 'ref|id',
        description: 'the purchase order the hours were for (its reference or id)',
        ref: 'purchase-order',
      },
      { key: 'reference', flag: '--reference', arg: 'text', description: 'makes it idempotent: the same reference bills once' },
    ],
    examples: [
      'fos charges add --merchant "Acme Outdoor" --name "Relabel 200 units" --note "new barcodes" --quantity 2 --reference PRJ-14',
      'fos charges add --merchant "Acme Outdoor" --kind RECEIVING_HOURS --name "Unloading" --note "floor-loaded 40ft" --quantity 1.5 --purchase-order PO-7781',
      'fos charges add --merchant "Acme Outdoor" --name "Photo shoot" --note "agreed by e-mail" --quantity 1 --unit-amount 250',
    ],
  });
}
