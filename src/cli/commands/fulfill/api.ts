import type { ApiClient } from '../../../client/api-client.js';
import { ApiError, NetworkError } from '../../../client/errors.js';
import { fetchLabel, type Document } from '../../shared/documents.js';
import { orderIdOf } from '../../shared/order-ref.js';
import { resolveIdPrefix } from '../../shared/refs.js';
import { seg } from '../../shared/resource.js';
import type { Static } from 'typebox';
import type { FulfillmentOrderLineSchema, FulfillmentOrderSchema, LockResponse } from '../../../contract/fulfillment.js';
import type { PackageLineItemSchema, ShippingLabelSchema } from '../../../contract/package-nested.js';
import type { PackageSchema } from '../../../contract/packages.js';

/**
 * The API calls `fos fulfill run` makes, with the shapes it reads (a subset of the server's;
 * docs/fulfill-run.md). Retries are the API client's one policy and budget (src/client/retry.ts,
 * docs/cli.md "Retries"): 429s are waited out, and every write here is marked idempotent so the
 * client also repeats it after a broken connection or a 502/503/504, because each one is safe to repeat:
 * package creation carries an idempotency key, and a repeated accept/lock/label/fulfill/release
 * answers in a way the workflow recognises (idempotent success, or 409 "already …").
 */
// The shapes it reads are picks of the contract's schemas (one source: a field renamed or dropped
// there fails the build here).
type FoLineFull = Static<typeof FulfillmentOrderLineSchema>;
type FoFull = Static<typeof FulfillmentOrderSchema>;
type PackageFull = Static<typeof PackageSchema>;
type LabelFull = Static<typeof ShippingLabelSchema>;

/** A line; `short_quantity`: units recorded short (a short pick or pack), never shipped until split off. */
export type FoLine = Pick<FoLineFull, 'id' | 'sku' | 'name' | 'product_id' | 'quantity' | 'remaining_quantity' | 'short_quantity'>;

/** With the order's priority and shipping method (to check a bought label's speed). */
export type FulfillmentOrder = Pick<FoFull, 'id' | 'order_id' | 'order_number' | 'status' | 'remaining_quantity' | 'lock'> &
  Partial<Pick<FoFull, 'priority' | 'shipping_method'>> & { line_items: FoLine[] };

export type PackageLine = Pick<Static<typeof PackageLineItemSchema>, 'sku' | 'name' | 'quantity' | 'weight' | 'weight_unit'> &
  Partial<Pick<Static<typeof PackageLineItemSchema>, 'core_fulfillment_order_line_item_id'>>;

export type Package = Pick<
  PackageFull,
  'id' | 'status' | 'weight' | 'weight_unit' | 'shipment_status' | 'tracking_number' | 'formatted_service'
> & {
  package_line_items: PackageLine[];
  shipping_label: (Pick<LabelFull, 'tracking_code' | 'formatted_service'> & Partial<Pick<LabelFull, 'delivery_days'>>) | null;
};

export type LockResult = Static<typeof LockResponse>;

export interface CreatedPackage {
  pkg: Package;
  /** false when the server returned the package an earlier request with the same key made. */
  created: boolean;
}

/** No answer, or a gateway / a draining server saying "not now": the request may or may not have run. */
export const isUnanswered = (err: unknown) =>
  err instanceof NetworkError || (err instanceof ApiError && [502, 503, 504].includes(err.status));

/** Every write of the workflow is safe to repeat (see the file comment): the client retries it like a GET. */
const REPEATABLE = { idempotent: true } as const;

export class FulfillApi {
  constructor(private readonly client: ApiClient) {}

  /** The id of the order with this number (`1003`, `#1003`); see shared/order-ref.ts. */
  orderIdByNumber(ref: string): Promise<string> {
    return orderIdOf(this.client, ref);
  }

  /** The id of the one fulfillment order whose id starts with `prefix` (a short id, as tables show them). */
  fulfillmentOrderIdByPrefix(prefix: string): Promise<string> {
    return resolveIdPrefix(this.client, '/ops/fulfillment-orders', prefix, 'fulfillment order', 'order_number');
  }

  getFulfillmentOrder(id: string): Promise<FulfillmentOrder> {
    return this.client.get<FulfillmentOrder>(`/ops/fulfillment-orders/${seg(id)}`);
  }

  /** Every fulfillment order of an order (all pages). */
  async fulfillmentOrdersOf(orderId: string): Promise<FulfillmentOrder[]> {
    const out: FulfillmentOrder[] = [];
    for await (const fo of this.client.paginate<FulfillmentOrder>('/ops/fulfillment-orders', { order_id: orderId }, { pageSize: 100 })) {
      out.push(fo);
    }
    return out;
  }

  getOrder(id: string): Promise<{ id: string; order_number?: string }> {
    return this.client.get(`/ops/orders/${seg(id)}`);
  }

  accept(id: string): Promise<FulfillmentOrder> {
    return this.client.post<FulfillmentOrder>(`/ops/fulfillment-orders/${seg(id)}/accept`, undefined, REPEATABLE);
  }

  lock(id: string, owner: string, minutes: number): Promise<LockResult> {
    return this.client.post<LockResult>(
      `/ops/fulfillment-orders/${seg(id)}/lock`,
      { lock_owner: owner, timeout_minutes: minutes },
      REPEATABLE,
    );
  }

  release(id: string, owner: string): Promise<LockResult> {
    return this.client.post<LockResult>(`/ops/fulfillment-orders/${seg(id)}/release`, { lock_owner: owner }, REPEATABLE);
  }

  /** POST /ops/packages with the key as field and header (the client then retries it safely). */
  async createPackage(body: Record<string, unknown>, idempotencyKey: string): Promise<CreatedPackage> {
    const res = await this.client.request<Package>('POST', '/ops/packages', {
      body: { ...body, idempotency_key: idempotencyKey },
      idempotencyKey,
    });
    return { pkg: res.data, created: res.status === 201 };
  }

  /** The open (PENDING) packages of a fulfillment order, oldest first: a station's boxes to take over. */
  openPackages(foId: string): Promise<Package[]> {
    return (async () => {
      const out: Package[] = [];
      const query = { fulfillment_order_id: foId, status: 'PENDING' };
      for await (const p of this.client.paginate<Package>('/ops/packages', query, { pageSize: 100 })) out.push(p);
      return out;
    })();
  }

  /** Splits the units recorded short off to a new fulfillment order (--partial); the original as it is after. */
  splitShortfall(foId: string, owner: string): Promise<{ original: FulfillmentOrder; split: FulfillmentOrder }> {
    return this.client.post(`/ops/fulfillment-orders/${seg(foId)}/split-shortfall`, { lock_owner: owner });
  }

  getPackage(id: string): Promise<Package> {
    return this.client.get<Package>(`/ops/packages/${seg(id)}`);
  }

  updatePackage(id: string, body: Record<string, unknown>): Promise<Package> {
    return this.client.patch<Package>(`/ops/packages/${seg(id)}`, body, REPEATABLE);
  }

  label(id: string, body: Record<string, unknown>): Promise<Package> {
    return this.client.post<Package>(`/ops/packages/${seg(id)}/label`, body, REPEATABLE);
  }

  /** The label document of a labelled package (--print-dir). */
  labelDocument(pkg: Package): Promise<Document> {
    return fetchLabel(this.client, pkg as unknown as Record<string, unknown>);
  }

  /**
   * Fulfills the package. When an attempt went unanswered and the repeat says "already fulfilled",
   * the first attempt did it (the package is ours and so is the lock): the package is re-read and
   * returned as fulfilled, not reported as done by someone else.
   */
  async fulfill(id: string, lockedBy: string): Promise<Package> {
    const seen: { unanswered?: boolean } = {};
    try {
      return await this.client.post<Package>(`/ops/packages/${seg(id)}/fulfill`, { locked_by: lockedBy }, { ...REPEATABLE, seen });
    } catch (err) {
      if (seen.unanswered && isAlreadyFulfilled(err)) {
        const pkg = await this.getPackage(id);
        if (pkg.status === 'FULFILLED') return pkg;
      }
      throw err;
    }
  }
}

/** A 409 saying the work is already done: the FO is FULFILLED, or the package already fulfilled. */
export function isAlreadyFulfilled(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 409) return false;
  const body = err.body as Record<string, unknown> | null;
  if (body && typeof body === 'object' && body.fulfillment_order_status === 'FULFILLED') return true;
  return /already fulfilled|is FULFILLED/i.test(err.detail);
}

/** A 409 saying the package already has a label (a repeated label request whose first attempt worked). */
export function isAlreadyLabelled(err: unknown): boolean {
  return err instanceof ApiError && err.status === 409 && /already has a shipping label/i.test(err.detail);
}

export const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

/** The tracking code of a labelled package. */
export const trackingOf = (pkg: Package | undefined) => pkg?.shipping_label?.tracking_code ?? pkg?.tracking_number ?? null;
