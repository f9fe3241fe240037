import { CliError, UsageError } from '../errors.js';

/**
 * `--jq <expr>`: the real jq (jq 1.7 compiled to WebAssembly by the jq-wasm package, no native
 * binary, no download), applied to what the command would print as JSON, as gh's --jq is: a
 * list's array of records, or the one record. Strings print raw (jq -r), other values as JSON,
 * indented on a terminal and compact in a pipe. Loaded on first use (1.3 MB of wasm).
 */
export async function runJq(input: unknown, expr: string, pretty: boolean): Promise<string> {
  const jq = (await import('jq-wasm')).default as { raw(input: unknown, filter: string, flags?: string[]): Promise<string> };
  try {
    const out = await jq.raw(input, expr, pretty ? ['-r'] : ['-r', '-c']);
    return out === '' || out.endsWith('\n') ? out : `${out}\n`;
  } catch (err) {
    const message = firstLines((err as Error).message);
    // jq's compile errors are the user's expression: a usage error; runtime ones (indexing a
    // string, …) fail the command like any other error.
    if (/compile error/.test(message)) throw new UsageError(`--jq: ${message}`);
    throw new CliError(`--jq: ${message}`);
  }
}

function firstLines(message: string): string {
  return (
    message
      .replace(/^jq: error(?: \(at [^)]*\))?:\s*/, '')
      .split('\n')
      .filter((l) => l.trim() && !/^jq: \d+ compile error/.test(l))
      .slice(0, 2)
      .join(' ')
      .trim() + (/compile error/.test(message) ? ' (compile error)' : '')
  );
}
