import { ApiError, NetworkError } from '../../../client/errors.js';
import { CliError, ExitCode, exitCodeFor } from '../../errors.js';
import type { FulfillmentOrder } from './api.js';

/** One line of `fos fulfill run` output: one per fulfillment order (or per id that did not resolve). */
export type ResultStatus = 'fulfilled' | 'skipped' | 'failed' | 'planned';
export type Step = 'resolve' | 'plan' | 'accept' | 'lock' | 'split' | 'package' | 'label' | 'fulfill';

export interface ErrorInfo {
  /** problem+json kind (not-found, conflict, lock-held, …), or usage / network / error. */
  kind: string;
  /** HTTP status, for API errors. */
  status?: number;
  message: string;
  /** The exit code this error class has (docs/cli.md). */
  exit_code: number;
}

export interface FulfillResult {
  /** The id as given (an order or a fulfillment order id). */
  input: string;
  fulfillment_order_id: string | null;
  order_id: string | null;
  order_number: string | null;
  status: ResultStatus;
  package_id: string | null;
  tracking_code: string | null;
  /** --print-dir: where this run saved the package's label. */
  label_file?: string;
  /** failed: the step that failed. */
  step?: Step;
  /** skipped: why. */
  reason?: string;
  /** failed: what was left behind, e.g. "package … created and labelled, not fulfilled; lock released". */
  state?: string;
  error?: ErrorInfo;
  /** --dry-run: whether a PENDING fulfillment order would be accepted first. */
  accept?: boolean;
  /** --dry-run: what would be packed. */
  items?: { sku: string | null; name: string; quantity: number }[];
  /** --dry-run: where the label would come from. */
  label?: string;
  /** What the run does (planned) or did (fulfilled), in order: --dry-run shows the real run's steps. */
  steps?: string[];
  /** Every package shipped, when the run took over more than one. */
  package_ids?: string[];
}

/** Every member a result may have (the compiler keeps it equal to FulfillResult): `--json` is checked against it before anything is sent. */
export const RESULT_MEMBERS: Record<keyof FulfillResult, null> = {
  input: null,
  fulfillment_order_id: null,
  order_id: null,
  order_number: null,
  status: null,
  package_id: null,
  tracking_code: null,
  label_file: null,
  step: null,
  reason: null,
  state: null,
  error: null,
  accept: null,
  items: null,
  label: null,
  steps: null,
  package_ids: null,
};

const KIND_BY_EXIT: Record<number, string> = {
  [ExitCode.USAGE]: 'usage',
  [ExitCode.AUTH]: 'unauthorized',
  [ExitCode.NOT_FOUND]: 'not-found',
  [ExitCode.CONFLICT]: 'conflict',
  [ExitCode.RATE_LIMITED]: 'rate-limited',
  [ExitCode.NETWORK]: 'network',
};

export function errorInfo(err: unknown): ErrorInfo {
  const exit_code = exitCodeFor(err);
  if (err instanceof ApiError) return { kind: err.kind, status: err.status, message: `${err.title}: ${err.detail}`, exit_code };
  if (err instanceof NetworkError) return { kind: 'network', message: err.message, exit_code };
  if (err instanceof CliError) return { kind: KIND_BY_EXIT[err.exitCode] ?? 'error', message: err.message, exit_code };
  return { kind: 'error', message: err instanceof Error ? err.message : String(err), exit_code };
}

export function baseResult(
  input: string,
  fo?: Pick<FulfillmentOrder, 'id' | 'order_id' | 'order_number'> | null,
): Omit<FulfillResult, 'status'> {
  return {
    input,
    fulfillment_order_id: fo?.id ?? null,
    order_id: fo?.order_id ?? null,
    order_number: fo?.order_number ?? null,
    package_id: null,
    tracking_code: null,
  };
}

export function failedResult(base: Omit<FulfillResult, 'status'>, step: Step, err: unknown, state: string): FulfillResult {
  return { ...base, status: 'failed', step, state, error: errorInfo(err) };
}

/** The exit code of a run: 0, the failures' shared code, or 1 when they differ. */
export function exitCodeOf(results: readonly FulfillResult[]): ExitCode {
  const codes = new Set(results.filter((r) => r.status === 'failed').map((r) => r.error?.exit_code ?? ExitCode.ERROR));
  if (codes.size === 0) return ExitCode.OK;
  return codes.size === 1 ? ([...codes][0] as ExitCode) : ExitCode.ERROR;
}
