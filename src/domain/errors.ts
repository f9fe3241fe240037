// Domain errors carry a problem kind; the server maps each kind to one HTTP status and
// problem+json type, the CLI maps them to exit codes. No HTTP knowledge lives here.

export type ProblemKind =
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'validation-failed'
  | 'conflict'
  | 'lock-held'
  | 'on-hold'
  | 'unprocessable'
  | 'rate-limited'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'unavailable'
  | 'internal';

export interface FieldError {
  path: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: ProblemKind,
    message: string,
    /** Extra members for the problem body (e.g. lock_owner, errors). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string, id?: string) =>
  new DomainError('not-found', id ? `${what} ${id} was not found.` : `${what} was not found.`);

export const conflict = (message: string, extra?: Record<string, unknown>) => new DomainError('conflict', message, extra);

export const forbidden = (message: string) => new DomainError('forbidden', message);

export const invalid = (path: string, message: string) =>
  new DomainError('validation-failed', `${path}: ${message}`, { errors: [{ path, message }] });
