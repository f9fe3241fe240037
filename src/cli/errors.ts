import { ApiError, NetworkError } from '../client/errors.js';

/**
 * Exit codes of `fos` (documented in docs/cli.md):
 *
 * | code | meaning                                                            |
 * |------|--------------------------------------------------------------------|
 * | 0    | success                                                            |
 * | 1    | generic failure, server error (5xx), unexpected error              |
 * | 2    | usage or validation error (bad flags, local checks, HTTP 400/413/422) |
 * | 3    | authentication/authorization (HTTP 401/403, not logged in)         |
 * | 4    | not found (HTTP 404)                                               |
 * | 5    | conflict or lock held (HTTP 409)                                   |
 * | 6    | rate limited (HTTP 429 after the client's retries)                 |
 * | 7    | network: server unreachable, connection broken                     |
 */
export const ExitCode = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  CONFLICT: 5,
  RATE_LIMITED: 6,
  NETWORK: 7,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the CLI raises itself, with its exit code. Printed as `error: <message>`. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: ExitCode = ExitCode.ERROR) {
    super(message);
    this.name = 'CliError';
  }
}

/** Bad or missing flags, values failing local validation. Exit 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.USAGE);
    this.name = 'UsageError';
  }
}

/** No usable credentials. Exit 3. */
export class AuthError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.AUTH);
    this.name = 'AuthError';
  }
}

/** Raised when stdout was closed by the reader (`fos … | head`); ends quietly with 0. */
export class StdoutClosedError extends Error {
  constructor() {
    super('stdout closed');
    this.name = 'StdoutClosedError';
  }
}

export function exitCodeForStatus(status: number): ExitCode {
  if (status === 400 || status === 413 || status === 415 || status === 422) return ExitCode.USAGE;
  if (status === 401 || status === 403) return ExitCode.AUTH;
  if (status === 404) return ExitCode.NOT_FOUND;
  if (status === 409) return ExitCode.CONFLICT;
  if (status === 429) return ExitCode.RATE_LIMITED;
  return ExitCode.ERROR;
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
