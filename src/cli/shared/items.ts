import { InvalidArgumentError, type Command } from 'commander';

/**
 * Repeatable line-item flags: `--item sku=MUG,quantity=2,price=9.5` -> { sku: 'MUG', quantity: 2, price: 9.5 }.
 * `numbers` lists the keys parsed as numbers (`integers` among them must be whole and >= 1);
 * an item needs every key of `required` and one key of `oneOf`.
 */
export interface ItemSpec {
  flag: string;
  description: string;
  numbers: readonly string[];
  integers?: readonly string[];
  required: readonly string[];
  oneOf: readonly string[];
}

export function parseItem(spec: ItemSpec, raw: string): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const part of raw.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new InvalidArgumentError(`expected key=value pairs, e.g. ${spec.oneOf[0]}=…,${spec.required.join('=…,')}=….`);
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!spec.numbers.includes(key)) {
      item[key] = value;
      continue;
    }
    const n = Number(value);
    const whole = spec.integers?.includes(key);
    if (value === '' || !Number.isFinite(n) || n < 0 || (whole && (!Number.isInteger(n) || n < 1))) {
      throw new InvalidArgumentError(`${key} must be ${whole ? 'a whole number of at least 1' : 'a number of at least 0'}.`);
    }
    item[key] = n;
  }
  const missing = spec.required.filter((k) => item[k] === undefined);
  if (missing.length || !spec.oneOf.some((k) => item[k] !== undefined)) {
    throw new InvalidArgumentError(`each item needs ${[...spec.required, spec.oneOf.join(' or ')].join(', ')}.`);
  }
  return item;
}

/** Adds the repeatable option; its values collect into an array under the option's name. */
export function addItemOption(cmd: Command, spec: ItemSpec): Command {
  return cmd.option(spec.flag, spec.description, (raw: string, prev: Record<string, unknown>[] = []) => [...prev, parseItem(spec, raw)]);
}
