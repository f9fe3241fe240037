import { UsageError } from '../errors.js';

/**
 * `--template <text>`: each record printed through a Mustache template (as gh's --template does
 * with Go templates), one line per record of a list: `{{order_number}} {{status}}`, nested fields
 * with dots (`{{lock.lock_owner}}`), sections for lists and optional parts
 * (`{{#line_items}}{{sku}}×{{quantity}} {{/line_items}}`). Nothing is HTML-escaped; `\t` and `\n`
 * in the template stand for a tab and a newline. A missing field prints nothing.
 */
export async function compileTemplate(template: string): Promise<(record: unknown) => string> {
  const { default: Mustache } = await import('mustache'); // loaded only when asked for
  const text = template.replace(/\\t/g, '\t').replace(/\\n/g, '\n');
  try {
    Mustache.parse(text);
  } catch (err) {
    throw new UsageError(`--template: ${(err as Error).message}`);
  }
  return (record) => {
    const line = Mustache.render(text, record ?? {}, undefined, { escape: (v: unknown) => String(v) });
    return line.endsWith('\n') ? line : `${line}\n`;
  };
}
