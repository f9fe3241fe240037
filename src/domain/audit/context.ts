import { AsyncLocalStorage } from 'node:async_hooks';

// The request context of the audit log (issue 42, docs/audit.md): who is writing, from where,
// which operation, on what. The server (src/server/audit.ts) and `fos admin` open one per request
// or command; domain code only adds what it alone knows (the actor of a sign-in, the row before
// a change). The first write transaction that commits in the context inserts its record
// (record.ts, through the hook of src/db/tx.ts).

export type ActorType = 'KEY' | 'CONNECTION' | 'USER' | 'CLI' | 'ANONYMOUS';

export interface AuditActor {
  type: ActorType;
  id?: string | null;
  name?: string | null;
  /** The person behind a connection. */
  userId?: string | null;
  teamId?: string | null;
}

export interface AuditTarget {
  type?: string | null;
  id?: string | null;
  /** Human key: SKU, order number, name. */
  key?: string | null;
}

export interface AuditContext {
  action: string;
  method?: string;
  path?: string;
  ip?: string;
  userAgent?: string;
  traceId?: string;
  actor?: AuditActor;
  target: AuditTarget;
  /** The request's fields (redacted when recorded). */
  fields?: Record<string, unknown>;
  /** The target's values before the write, when the domain had the row anyway. */
  before?: Record<string, unknown>;
  /** Writes are recorded from now on (the handler runs; not the authentication's own writes). */
  active: boolean;
  /** A row was inserted by a transaction not yet known to have committed. */
  pending: boolean;
  /** A committed transaction holds this context's record: later ones add none. */
  recorded: boolean;
  /** The id of the row once inserted. */
  eventId?: string;
  /** The target id the record was inserted with (from the transaction's result), when it had one. */
  eventTargetId?: string | null;
}

const als = new AsyncLocalStorage<AuditContext>();

export const auditContext = (): AuditContext | undefined => als.getStore();

export function newAuditContext(action: string, init: Partial<AuditContext> = {}): AuditContext {
  return { action, target: {}, active: false, pending: false, recorded: false, ...init };
}

/** Runs fn (and everything it starts) in ctx. */
export const runAudited = <T>(ctx: AuditContext, fn: () => T): T => als.run(ctx, fn);

/** The actor when no key authenticated the request (a /floor sign-in: the person signing in). */
export function setAuditActor(actor: AuditActor): void {
  const ctx = als.getStore();
  if (ctx) ctx.actor = actor;
}

/** The target's values before the change, when the domain read the row anyway (cheap). */
export function noteAuditBefore(row: object | null | undefined, target?: AuditTarget): void {
  const ctx = als.getStore();
  if (!ctx || !row) return;
  ctx.before = row as Record<string, unknown>;
  if (target) ctx.target = { ...ctx.target, ...Object.fromEntries(Object.entries(target).filter(([, v]) => v)) };
}

/** The target, when the route's path does not name it (a sign-in's connection). */
export function noteAuditTarget(target: AuditTarget): void {
  const ctx = als.getStore();
  if (ctx) ctx.target = { ...ctx.target, ...target };
}

/** The request changes nothing after all (an idempotent replay answers the first request's result): no record. */
export function skipAuditRecord(): void {
  const ctx = als.getStore();
  if (ctx && !ctx.recorded) ctx.active = false;
}

/** Runs fn (and everything it starts) outside any request's context: background work a request only kicks off. */
export const outsideAudit = <T>(fn: () => T): T => als.exit(fn);
