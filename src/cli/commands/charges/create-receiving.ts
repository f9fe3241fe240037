import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function chargesCreateReceiving(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/charges.js')).ChargeSchema),
    name: 'create-receiving',
    description: 'Bill a receiving (inbound processing) charge',
    method: 'POST',
    mode: 'create',
    path: () => '/ops/charges/receiving',
    fields: [
      { key: 'fulfillment_delegation_id', flag: '--delegation', arg: 'id', description: 'delegation to bill', required: true },
      { key: 'data.name', flag: '--name', description: 'charge name', required: true },
      { key: 'data.quantity', flag: '--quantity', type: 'number', min: 0, description: 'quantity billed', required: true },
      {
        key: 'data.purchase_order_id',
        flag: '--purchase-order',
        arg: 'id',
        description: 'purchase order received',
        required: true,
        ref: 'purchase-order',
      },
    ],
    examples: ['fos charges create-receiving --delegation 0193… --name "Inbound pallets" --quantity 3 --purchase-order PO-1001'],
  });
}
