import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { UsageError } from '../../errors.js';
import { deliver, documentOptions, fetchLabel, type DocumentOptions } from '../../shared/documents.js';
import { writeCommand } from '../../shared/resource.js';
import { packagePath } from './fields.js';
import { RATE_OPTION_FIELDS } from '../../shared/rate-options.js';
import { response } from '../../output/shape.js';

export default function packagesLabel(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/packages.js')).PackageSchema),
    name: 'label',
    description: 'Attach a shipping label: upload an external one, or buy one by rate shopping; --print / --output fetch it',
    method: 'POST',
    mode: 'action',
    args: ['<package-id>'],
    path: ([id]) => packagePath(id, 'label'),
    fields: [
      { key: 'label_url', arg: 'url', description: 'URL of an externally generated label' },
      { key: 'tracking_number', description: 'carrier tracking number' },
      { key: 'carrier', description: 'carrier name' },
      { key: 'service', description: 'carrier service' },
      { key: 'cost', type: 'number', min: 0, description: 'label cost' },
      { key: 'cost_currency', description: 'ISO 4217 currency' },
      { key: 'tracking_url', arg: 'url', description: 'tracking page URL' },
      { key: 'rate_strategy', type: 'enum', values: ENUMS.rate_strategy, description: 'buy a label by rate shopping instead' },
      ...RATE_OPTION_FIELDS,
      { key: 'carrier_id', arg: 'id', description: 'rate shopping: only this carrier' },
      { key: 'service_id', arg: 'id', description: 'rate shopping: only this service' },
      {
        key: 'label_format',
        type: 'enum',
        values: ENUMS.label_format,
        description: 'rate shopping: the label document, 4x6 PDF (default) or ZPL',
      },
    ],
    configure: (cmd) => documentOptions(cmd, 'label'),
    transform: (body, opts) => {
      // stdout carries the package's JSON here; the document alone is `fos packages get-label`.
      if (opts.output === '-')
        throw new UsageError(
          '--output - would mix the label with the package JSON on stdout: save to a file, or use `fos packages get-label <id> > label.pdf`',
        );
      return body;
    },
    after: async (ctx, record, opts) => {
      const o = opts as DocumentOptions;
      if (!o.output && !o.print) return;
      await deliver(ctx, await fetchLabel(ctx.client(), record as Record<string, unknown>), o, false);
    },
    examples: [
      'fos packages label 0193… --label-url https://labels.example/1.pdf --tracking-number 1Z999 --carrier UPS --service Ground --cost 7.5 --cost-currency USD',
      'fos packages label 0193… --rate-strategy CHEAPEST --print',
      'fos packages label 0193… --rate-strategy CHEAPEST --label-format ZPL --output label.zpl',
    ],
  });
}
