// Exit codes and the errors that carry them: shared by the client commands (src/cli) and the
// server-side commands (`fos admin`, `fos db`: src/server/admin-commands.ts), and the mapping of
// the API's HTTP statuses (problem+json) to exit codes. Import-free.

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
 * | 8    | database check failed, or the database was migrated by a newer fos  |
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
  DATABASE: 8,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the CLI raises itself, with its exit code. Printed as `error: <message>`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.ERROR,
  ) {
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

/** The exit code for an API error's HTTP status (docs/cli.md, "Exit codes"). */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 400 || status === 413 || status === 415 || status === 422) return ExitCode.USAGE;
  if (status === 401 || status === 403) return ExitCode.AUTH;
  if (status === 404) return ExitCode.NOT_FOUND;
  if (status === 409) return ExitCode.CONFLICT;
  if (status === 429) return ExitCode.RATE_LIMITED;
  return ExitCode.ERROR;
}
