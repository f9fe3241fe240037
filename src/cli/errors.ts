import { ApiError, NetworkError } from '../client/errors.js';
import { AuthError, CliError, ExitCode, exitCodeForStatus, UsageError } from '../shared/exit-codes.js';

export { AuthError, CliError, ExitCode, exitCodeForStatus, UsageError };

/** Raised when stdout was closed by the reader (`fos … | head`); ends quietly with 0. */
export class StdoutClosedError extends Error {
  constructor() {
    super('stdout closed');
    this.name = 'StdoutClosedError';
  }
}

/** Commander's own errors carry `code: 'commander.*'` and an exitCode. */
function isCommanderError(err: unknown): err is { code: string; exitCode: number } {
  return typeof err === 'object' && err !== null && String((err as { code?: unknown }).code).startsWith('commander.');
}

export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof StdoutClosedError) return ExitCode.OK;
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof ApiError) return exitCodeForStatus(err.status);
  if (err instanceof NetworkError) return ExitCode.NETWORK;
  // help/version exit 0; every other commander error is a usage error.
  if (isCommanderError(err)) return err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
  return ExitCode.ERROR;
}

/**
 * The one stderr line for an error: `error: <title>: <detail>` for API errors (the detail already
 * ends with the support reference), `error: <message>` otherwise. Returns '' for errors commander
 * has already printed and for a closed stdout. `verbose` adds field errors and stacks.
 */
export function renderError(err: unknown, verbose = false): string {
  if (err instanceof StdoutClosedError || isCommanderError(err)) return '';
  if (err instanceof ApiError) {
    let line = `error: ${err.title}: ${err.detail}\n`;
    if (verbose) for (const e of err.errors ?? []) line += `  ${e.path}: ${e.message}\n`;
    return line;
  }
  if (err instanceof NetworkError) return `error: network error: ${err.message}\n`;
  const message = err instanceof Error ? err.message : String(err);
  const stack = verbose && err instanceof Error && !(err instanceof CliError) ? `${err.stack}\n` : '';
  return `error: ${message}\n${stack}`;
}
