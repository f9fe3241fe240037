import type { Context } from '../../context.js';
import { deliver, fetchLabel, saveIn } from '../../shared/documents.js';
import { seg } from '../../shared/resource.js';

// Labelling a box the station just closed (`fos pack --print` / `--print-dir`): the label is bought
// with the package's rate_strategy (set from --rate-strategy when the box was packed), then its
// document (this server's, or an uploaded label's label_url) is printed and/or saved.

export interface LabelOptions {
  print?: boolean;
  printer?: string;
  labelDir?: string;
}

/** Labels the package; returns what was done, for the station's message line, and the labelled package. */
export async function labelPackage(
  ctx: Context,
  pkg: Record<string, unknown>,
  orderNumber: string,
  opts: LabelOptions,
): Promise<{ text: string; labelled: Record<string, unknown> }> {
  const client = ctx.client();
  const id = String(pkg.id);
  const labelled = await client.post<Record<string, unknown>>(`/ops/packages/${seg(id)}/label`, {});
  const doc = await fetchLabel(client, labelled);
  const done: string[] = [`Labelled (${String(labelled.tracking_number ?? 'no tracking number')}).`];
  if (opts.labelDir) done.push(`Label saved: ${await saveIn(opts.labelDir, doc, orderNumber)}.`);
  if (opts.print) {
    await deliver(ctx, doc, { print: true, printer: opts.printer }, false);
    done.push('Label sent to the printer.');
  }
  return { text: done.join(' '), labelled };
}
