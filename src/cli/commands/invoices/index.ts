import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { ENUMS } from '../../enums.js';
import { deliver, documentOptions, type DocumentOptions } from '../../shared/documents.js';
import { addArguments, commandOf, withExamples } from '../../shared/help.js';
import { listCommand } from '../../shared/list.js';
import { getCommand, group, resourcePath, writeCommand } from '../../shared/resource.js';
import { declareOutput, fixed, response } from '../../output/shape.js';
import { familyOf, familyPath, withKeyFamily } from '../../shared/family.js';
import { fullIdOf } from '../../shared/refs.js';

// `fos invoices …` (docs/invoices.md): a merchant's charges of a period on one invoice; drafts
// made by the server at period end or here with `generate`, then finalize, send, pay or void.

const path = (id?: string, action?: string) => resourcePath('/ops/invoices', id, action);
/** A read's path in the key's family: a merchant's key reads its own invoices (/merchant/invoices, finalized on). */
const readPath = (opts: Record<string, unknown>, id?: string, action?: string) => resourcePath(familyPath(opts, 'invoices'), id, action);
const schema = response(async () => (await import('../../../contract/invoices.js')).InvoiceSchema);
const STATUSES = ENUMS.invoice_status;
const FORMATS = ENUMS.invoice_export_format;

/** `--month 2026-01` as the first and last day of that month. */
function monthBounds(month: string): { period_start: string; period_end: string } {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) throw new UsageError(`--month ${month}: expected YYYY-MM`);
  const last = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
  return { period_start: `${month}-01`, period_end: `${month}-${String(last).padStart(2, '0')}` };
}

const action = (
  ctx: Context,
  name: string,
  description: string,
  examples: string[],
  extra: Partial<Parameters<typeof writeCommand>[1]> = {},
) =>
  writeCommand(ctx, {
    output: schema,
    name,
    description,
    method: 'POST',
    mode: 'action',
    args: ['<invoice-id>'],
    path: ([id]) => path(id, name),
    examples,
    ...extra,
  });

function pdf(ctx: Context): Command {
  const cmd = new Command('pdf').description('Fetch the invoice as a PDF (logo, addresses, period, lines, tax, total)');
  addArguments(cmd, ['<invoice-id>']);
  documentOptions(cmd, 'invoice');
  cmd.action(async (...args: unknown[]) => {
    const command = commandOf(args);
    const family = await familyOf(ctx);
    const id = await fullIdOf(ctx.client(), readPath({ family }), (command.processedArgs as string[])[0], 'invoice');
    const doc = await ctx.client().download(readPath({ family }, id, 'pdf'));
    await deliver(ctx, { ...doc, filename: `invoice-${id}.pdf` }, command.opts() as DocumentOptions);
  });
  declareOutput(cmd, fixed('writes the invoice PDF'));
  return withExamples(cmd, ['fos invoices pdf 0193… --output invoice.pdf', 'fos invoices pdf 0193… --print']);
}

function exportCsv(ctx: Context): Command {
  const cmd = new Command('export').description("Export an invoice as CSV: its charges, or QuickBooks Online's or Xero's invoice import");
  addArguments(cmd, ['<invoice-id>']);
  cmd
    .addOption(new Option('--to <format>', 'charges (one row per charge), quickbooks or xero').choices(FORMATS).default('charges'))
    .option('--account-code <code>', 'xero: revenue account code (default 200)')
    .option('--tax-type <name>', "xero: the tax rate's name in Xero")
    .option('-o, --output <file>', "save the CSV to this file ('-' for stdout)");
  cmd.action(async (...args: unknown[]) => {
    const command = commandOf(args);
    const o = command.opts() as { to: string; accountCode?: string; taxType?: string; output?: string };
    const query: Record<string, string> = { format: o.to };
    if (o.accountCode) query.account_code = o.accountCode;
    if (o.taxType) query.tax_type = o.taxType;
    const family = await familyOf(ctx);
    const id = await fullIdOf(ctx.client(), readPath({ family }), (command.processedArgs as string[])[0], 'invoice');
    if (family === 'merchant' && o.to !== 'charges')
      throw new UsageError(`--to ${o.to} is the fulfiller's accounting export; a merchant key exports its charges (--to charges)`);
    const doc = await ctx.client().download(readPath({ family }, id, 'export'), query);
    await deliver(ctx, { ...doc, filename: `invoice-${id}.${o.to}.csv` }, { output: o.output });
  });
  declareOutput(cmd, fixed('writes the CSV'));
  return withExamples(cmd, [
    'fos invoices export 0193… > charges.csv',
    'fos invoices export 0193… --to quickbooks --output qbo-invoice.csv',
    'fos invoices export 0193… --to xero --account-code 4000 --tax-type "Tax Exempt"',
  ]);
}

export default (ctx: Context): Command =>
  group('invoices', "Invoices: a merchant's charges of a period (draft -> finalized -> sent -> paid, or void)", [
    listCommand(ctx, {
      output: schema,
      description: 'List invoices issued by this team, newest first (a merchant key: its own, finalized on)',
      path: (_args, opts) => readPath(opts),
      configure: (cmd) => withKeyFamily(ctx, cmd),
      query: [
        { key: 'status', type: 'enum', values: STATUSES, description: 'one status' },
        { key: 'merchant_team_id', flag: '--merchant', arg: 'name|id', description: 'invoices of this merchant', ref: 'merchant' },
        { key: 'period_from', flag: '--from', arg: 'YYYY-MM-DD', description: 'periods ending on or after this day' },
        { key: 'period_to', flag: '--to', arg: 'YYYY-MM-DD', description: 'periods starting on or before this day' },
      ],
      columns: ['id', 'number', 'status', 'merchant_team_name', 'period_start', 'period_end', 'total', 'currency'],
      examples: [
        'fos invoices list',
        'fos invoices list --status DRAFT --merchant "Acme Outdoor"',
        'fos invoices list --from 2026-01-01 --to 2026-01-31',
      ],
    }),
    getCommand(ctx, {
      output: schema,
      name: 'show',
      description: 'Show an invoice: its lines by category, tax and total',
      args: ['<invoice-id>'],
      path: ([id], opts) => readPath(opts, id),
      configure: (cmd) => withKeyFamily(ctx, cmd),
      examples: ['fos invoices show 0193…', 'fos invoices show 0193… --json number,total,lines'],
    }),
    writeCommand(ctx, {
      output: schema,
      name: 'generate',
      description: "Generate the draft of a merchant's period now (or regenerate the period's draft)",
      method: 'POST',
      mode: 'create',
      path: () => path(),
      fields: [
        {
          key: 'merchant_team_id',
          flag: '--merchant',
          arg: 'name|id',
          description: 'the merchant billed',
          required: true,
          ref: 'merchant',
        },
        { key: 'period_start', flag: '--from', arg: 'YYYY-MM-DD', description: 'first day billed (or --month)' },
        { key: 'period_end', flag: '--to', arg: 'YYYY-MM-DD', description: 'last day billed, inclusive (or --month)' },
      ],
      configure: (cmd) => cmd.option('--month <YYYY-MM>', 'the whole calendar month (instead of --from/--to)'),
      transform: (body, opts) => {
        const out = opts.month ? { ...body, ...monthBounds(String(opts.month)) } : body;
        if (!out.period_start || !out.period_end) throw new UsageError('give --month YYYY-MM, or --from and --to');
        return out;
      },
      examples: [
        'fos invoices generate --merchant "Acme Outdoor" --month 2026-01',
        'fos invoices generate --merchant "Acme Outdoor" --from 2026-01-01 --to 2026-01-15',
      ],
    }),
    action(ctx, 'regenerate', "Regenerate a draft: claim the period's new charges, sum lines and totals again", [
      'fos invoices regenerate 0193…',
    ]),
    action(ctx, 'rerate', "Re-rate a draft: its charges priced again by the rate-card version in force at each event's time", [
      'fos invoices rerate 0193…',
    ]),
    action(ctx, 'finalize', 'Finalize a draft once its period has ended: it gets the next invoice number and a due date', [
      'fos invoices finalize 0193…',
    ]),
    action(ctx, 'send', 'Mark a finalized invoice sent', ['fos invoices send 0193…']),
    action(ctx, 'pay', 'Mark a finalized or sent invoice paid', ['fos invoices pay 0193… --reference "ACH 4411"'], {
      fields: [
        { key: 'payment_reference', flag: '--reference', arg: 'text', description: 'the payment (check or transfer number)' },
        { key: 'paid_at', arg: 'ISO time', description: 'when it was paid (default now)' },
      ],
    }),
    action(
      ctx,
      'void',
      "Void an invoice: its charges go to the period's next invoice; its number stays taken",
      ['fos invoices void 0193… --reason "wrong rate" --yes'],
      {
        fields: [{ key: 'reason', arg: 'text', description: 'why (kept on the invoice)' }],
        confirm: ([id]) => `Void invoice ${id}? Its charges go back to be billed again.`,
      },
    ),
    pdf(ctx),
    exportCsv(ctx),
  ]);
