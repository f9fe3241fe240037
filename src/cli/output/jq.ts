import { CliError, UsageError } from '../errors.js';

/**
 * `--jq <expr>`: the real jq (jq 1.7 compiled to WebAssembly by the jq-wasm package, no native
 * binary, no download), applied to what the command would print as JSON, as gh's --jq is: a
 * list's array of records, or the one record. Strings print raw (jq -r), other values as JSON,
 * indented on a terminal and compact in a pipe. Loaded on first use (1.3 MB of wasm).
 */
type Jq = { raw(input: unknown, filter: string, flags?: string[]): Promise<string> };
const loadJq = async () => (await import('jq-wasm')).default as Jq;

export async function runJq(input: unknown, expr: string, pretty: boolean): Promise<string> {
  const jq = await loadJq();
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

/**
 * Compiles `expr` without running it (precheck.ts: before the command sends anything): jq
 * compiles the whole program, and `if false` never evaluates the user's part, so no input,
 * loop or error of it runs. The expression starts on line 1, so jq's line numbers stay right;
 * the newline ends a trailing `# comment`.
 */
export async function compileJq(expr: string): Promise<void> {
  const jq = await loadJq();
  try {
    await jq.raw({}, `if false then (${expr}\n) else empty end`, ['-c']);
  } catch (err) {
    throw new UsageError(`--jq: ${firstLines((err as Error).message)}`);
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
