import type { Command } from 'commander';
import { UsageError } from '../../errors.js';

// The line-item flags of `fos orders edit`: --add-line sku=…,quantity=…[,price=…],
// --set-quantity <line_id>=<n>, --remove-line <line_id> (each repeatable), folded into the
// PATCH body's add_line_items / update_line_items / remove_line_items.

const repeat = (v: string, prev: string[] = []) => [...prev, v];

export function addLineOptions(cmd: Command): Command {
  return cmd
    .option('--add-line <sku=…,quantity=n[,price=p]>', 'add a line (sku= or product_id=; repeatable)', repeat)
    .option('--set-quantity <line_id=n>', 'set the quantity of a core line (repeatable; never below packed + shipped)', repeat)
    .option('--remove-line <line_id>', 'remove a core line (repeatable; 409 if units are packed or shipped)', repeat);
}

function parseAdd(flag: string) {
  const out: Record<string, unknown> = {};
  for (const part of flag.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (eq <= 0 || !['sku', 'product_id', 'quantity', 'price'].includes(key))
      throw new UsageError(`--add-line ${flag}: expected sku=…|product_id=…,quantity=<n>[,price=<p>]`);
    out[key] = key === 'quantity' || key === 'price' ? Number(value) : value;
  }
  if (!Number.isInteger(out.quantity) || (out.quantity as number) < 1 || (!out.sku && !out.product_id))
    throw new UsageError(`--add-line ${flag}: needs sku= (or product_id=) and quantity=<whole number from 1>`);
  if (out.price !== undefined && !(Number(out.price) >= 0)) throw new UsageError(`--add-line ${flag}: price must be a number ≥ 0`);
  return out;
}

/** The body fields of the flags given (none when no line flag was used). */
export function lineChanges(opts: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const add = opts.addLine as string[] | undefined;
  const set = opts.setQuantity as string[] | undefined;
  const remove = opts.removeLine as string[] | undefined;
  if (add?.length) body.add_line_items = add.map(parseAdd);
  if (set?.length) {
    body.update_line_items = set.map((f) => {
      const m = /^([^=\s]+)=(\d+)$/.exec(f.trim());
      if (!m) throw new UsageError(`--set-quantity ${f}: expected <line_id>=<quantity> (a whole number from 0)`);
      return { order_line_item_id: m[1], quantity: Number(m[2]) };
    });
  }
  if (remove?.length) body.remove_line_items = remove.map((r) => r.trim());
  return body;
}
