// The GraphQL operations of the Shopify double (shopify-double.ts): what each root field answers
// and what it changes, as the GraphQL Admin API documents them.

export interface State {
  orders: any[];
  variants: any[];
  /** Fulfillment orders by order gid; assignedLocation defaults to DEFAULT_LOCATION. */
  fulfillmentOrders: Map<string, any[]>;
  /** fulfillmentCreate inputs, in order. */
  fulfillments: any[];
  fulfillmentEvents: any[];
  inventorySets: any[];
  /** fulfillmentServiceCreate variables. */
  services: any[];
  /** Fulfillment-request answers: { op, id, message, reason }. */
  requests: any[];
  owners: {
    id: string;
    order: string;
    number: string | null;
    lines: { foId: string; foLine: string; lineItem: string; quantity: number }[];
  }[];
}

export const DEFAULT_LOCATION = 'gid://shopify/Location/1';
export const SERVICE_LOCATION = 'gid://shopify/Location/900';

const OPS: [string, RegExp][] = [
  ['fulfillmentServiceCreate', /fulfillmentServiceCreate\(/],
  ['fulfillmentOrderAcceptFulfillmentRequest', /fulfillmentOrderAcceptFulfillmentRequest\(/],
  ['fulfillmentOrderRejectFulfillmentRequest', /fulfillmentOrderRejectFulfillmentRequest\(/],
  ['fulfillmentOrderAcceptCancellationRequest', /fulfillmentOrderAcceptCancellationRequest\(/],
  ['fulfillmentOrderRejectCancellationRequest', /fulfillmentOrderRejectCancellationRequest\(/],
  ['assignedFulfillmentOrders', /assignedFulfillmentOrders\(/],
  ['fulfillmentCreate', /fulfillmentCreate\(/],
  ['fulfillmentEventCreate', /fulfillmentEventCreate\(/],
  ['inventorySetQuantities', /inventorySetQuantities\(/],
  ['fulfillmentOrderState', /fulfillmentOrder\(id:/],
  ['fulfillmentState', /query FulfillmentState\b/],
  ['orderFulfillments', /fulfillments\(/],
  ['productVariants', /productVariants\(/],
  ['orders', /orders\(/],
  ['shop', /shop \{/],
];

export const opOf = (q: string) => OPS.find(([, re]) => re.test(q))?.[0] ?? 'unknown';

const page = (items: any[], first: number, after: string | null) => {
  const start = after ? Number(after) : 0;
  const nodes = items.slice(start, start + first);
  return { nodes, pageInfo: { hasNextPage: start + first < items.length, endCursor: String(start + nodes.length) } };
};

const allFos = (d: State) => [...d.fulfillmentOrders.entries()].flatMap(([order, fos]) => fos.map((fo) => ({ order, fo })));
const located = (fo: any) => ({ ...fo, assignedLocation: fo.assignedLocation ?? { location: { id: DEFAULT_LOCATION } } });
const fulfillmentNode = (o: State['owners'][number]) => ({
  id: o.id,
  trackingInfo: o.number ? [{ number: o.number }] : [],
  fulfillmentLineItems: { nodes: o.lines.map((l) => ({ quantity: l.quantity, lineItem: { id: l.lineItem } })) },
});
const userError = (root: string, message: string, field = ['id']) => ({
  data: { [root]: { [root === 'fulfillmentCreate' ? 'fulfillment' : 'fulfillmentOrder']: null, userErrors: [{ field, message }] } },
});

function fulfillmentCreate(d: State, f: any) {
  const picked = f.lineItemsByFulfillmentOrder.map((g: any) => ({ g, hit: allFos(d).find((x) => x.fo.id === g.fulfillmentOrderId) }));
  if (picked.some((p: any) => !p.hit)) return userError('fulfillmentCreate', 'Fulfillment order does not exist.', ['fulfillment']);
  const locations = new Set(picked.map((p: any) => located(p.hit.fo).assignedLocation.location.id));
  // Shopify: the fulfillment orders of one fulfillmentCreate are assigned to the same location.
  if (locations.size > 1)
    return userError('fulfillmentCreate', 'All fulfillment orders must be assigned to the same location.', ['fulfillment']);
  const lines: State['owners'][number]['lines'] = [];
  for (const { g, hit } of picked) {
    for (const li of g.fulfillmentOrderLineItems) {
      const line = hit.fo.lineItems.nodes.find((n: any) => n.id === li.id);
      if (!line || line.remainingQuantity < li.quantity)
        return userError('fulfillmentCreate', 'Invalid fulfillment order line item quantity requested.', ['fulfillment']);
      lines.push({ foId: hit.fo.id, foLine: li.id, lineItem: line.lineItem.id, quantity: li.quantity });
    }
  }
  for (const l of lines) {
    const fo = allFos(d).find((x) => x.fo.id === l.foId)!.fo;
    fo.lineItems.nodes.find((n: any) => n.id === l.foLine).remainingQuantity -= l.quantity;
    if (fo.lineItems.nodes.every((n: any) => n.remainingQuantity === 0)) fo.status = 'CLOSED';
  }
  d.fulfillments.push(f);
  const id = `gid://shopify/Fulfillment/${d.fulfillments.length}`;
  d.owners.push({ id, order: picked[0].hit.order, number: f.trackingInfo?.number ?? null, lines });
  return { data: { fulfillmentCreate: { fulfillment: { id, status: 'SUCCESS' }, userErrors: [] } } };
}

// Request status transitions of a fulfillment service's answers.
const ANSWERS: Record<string, { from: string; to: string; status?: string }> = {
  fulfillmentOrderAcceptFulfillmentRequest: { from: 'SUBMITTED', to: 'ACCEPTED', status: 'IN_PROGRESS' },
  fulfillmentOrderRejectFulfillmentRequest: { from: 'SUBMITTED', to: 'REJECTED' },
  fulfillmentOrderAcceptCancellationRequest: { from: 'CANCELLATION_REQUESTED', to: 'CANCELLATION_ACCEPTED', status: 'CLOSED' },
  fulfillmentOrderRejectCancellationRequest: { from: 'CANCELLATION_REQUESTED', to: 'CANCELLATION_REJECTED' },
};

function answerRequest(d: State, op: string, v: any) {
  const hit = allFos(d).find((x) => x.fo.id === v.id);
  const t = ANSWERS[op]!;
  if (!hit || hit.fo.requestStatus !== t.from) return userError(op, `The fulfillment order's request status is not ${t.from}.`);
  hit.fo.requestStatus = t.to;
  if (t.status) hit.fo.status = t.status;
  d.requests.push({ op, id: v.id, message: v.message ?? null, reason: v.reason ?? null });
  return { data: { [op]: { fulfillmentOrder: { id: v.id, status: hit.fo.status, requestStatus: t.to }, userErrors: [] } } };
}

const ASSIGNMENT: Record<string, string> = { FULFILLMENT_REQUESTED: 'SUBMITTED', CANCELLATION_REQUESTED: 'CANCELLATION_REQUESTED' };

export function graphqlAnswer(d: State, op: string, q: string, v: any, version: string): any {
  switch (op) {
    case 'shop':
      return { data: { shop: { name: 'Double Shop', currencyCode: 'USD' } } };
    case 'orders': {
      const since = /updated_at:>='([^']+)'/.exec(v.query ?? '')?.[1];
      const list = d.orders.filter((o) => (since ? o.updatedAt >= since : !o.cancelledAt && !o.closed));
      return { data: { orders: page(list, v.first, v.after ?? null) } };
    }
    case 'productVariants':
      return { data: { productVariants: page(d.variants, v.first, v.after ?? null) } };
    case 'fulfillmentState': {
      const fos = d.fulfillmentOrders.get(v.id);
      const fulfillments = d.owners.filter((o) => o.order === v.id).map(fulfillmentNode);
      return { data: { order: fos ? { fulfillmentOrders: { nodes: fos.map(located) }, fulfillments } : null } };
    }
    case 'fulfillmentOrderState': {
      const hit = allFos(d).find((x) => x.fo.id === v.id);
      const nodes = d.owners.filter((o) => o.lines.some((l) => l.foId === v.id)).map(fulfillmentNode);
      return { data: { fulfillmentOrder: hit ? { ...located(hit.fo), fulfillments: { nodes } } : null } };
    }
    case 'fulfillmentCreate':
      return fulfillmentCreate(d, v.fulfillment);
    case 'orderFulfillments': {
      const mine = d.owners
        .filter((o) => o.order === v.id)
        .map((o) => ({ id: o.id, trackingInfo: o.number ? [{ number: o.number }] : [] }));
      return { data: { order: d.fulfillmentOrders.has(v.id) ? { fulfillments: mine } : null } };
    }
    case 'fulfillmentEventCreate': {
      const e = v.fulfillmentEvent;
      if (!d.owners.some((o) => o.id === e.fulfillmentId))
        return {
          data: {
            fulfillmentEventCreate: {
              fulfillmentEvent: null,
              userErrors: [{ field: ['fulfillmentId'], message: 'Fulfillment does not exist' }],
            },
          },
        };
      d.fulfillmentEvents.push(e);
      const id = `gid://shopify/FulfillmentEvent/${d.fulfillmentEvents.length}`;
      return { data: { fulfillmentEventCreate: { fulfillmentEvent: { id, status: e.status }, userErrors: [] } } };
    }
    case 'inventorySetQuantities':
      return inventorySet(d, v, version);
    case 'fulfillmentServiceCreate': {
      if (!/^https?:\/\//.test(v.callbackUrl ?? ''))
        return {
          data: {
            fulfillmentServiceCreate: {
              fulfillmentService: null,
              userErrors: [{ field: ['callbackUrl'], message: 'Callback url is invalid' }],
            },
          },
        };
      d.services.push(v);
      const service = {
        id: `gid://shopify/FulfillmentService/${d.services.length}`,
        serviceName: v.name,
        callbackUrl: v.callbackUrl,
        location: { id: SERVICE_LOCATION },
      };
      return { data: { fulfillmentServiceCreate: { fulfillmentService: service, userErrors: [] } } };
    }
    case 'assignedFulfillmentOrders': {
      const want = ASSIGNMENT[v.assignmentStatus];
      const list = allFos(d)
        .map((x) => located(x.fo))
        .filter(
          (fo) => (!want || fo.requestStatus === want) && (!v.locationIds || v.locationIds.includes(fo.assignedLocation.location.id)),
        );
      return { data: { assignedFulfillmentOrders: page(list, v.first, v.after ?? null) } };
    }
    default:
      if (ANSWERS[op]) return answerRequest(d, op, v);
      return { errors: [{ message: `unknown operation: ${q.slice(0, 80)}` }] };
  }
}

function inventorySet(d: State, v: any, version: string) {
  // Shopify's compare-and-swap syntax by API version: changeFromQuantity exists from 2026-01
  // and is required on every quantity from 2026-04, when ignoreCompareQuantity is removed.
  const newest = version === 'unstable' || version >= '2026-04';
  const undefinedField = (f: string) => ({
    errors: [
      { message: `Variable $input of type InventorySetQuantitiesInput! was provided invalid value for ${f} (Field is not defined)` },
    ],
  });
  if (newest && 'ignoreCompareQuantity' in v.input) return undefinedField('ignoreCompareQuantity');
  if (version < '2026-01' && v.input.quantities.some((x: object) => 'changeFromQuantity' in x))
    return undefinedField('quantities.0.changeFromQuantity');
  if (newest && v.input.quantities.some((x: object) => !('changeFromQuantity' in x)))
    return {
      data: {
        inventorySetQuantities: {
          inventoryAdjustmentGroup: null,
          userErrors: [{ field: ['input', 'quantities', '0', 'changeFromQuantity'], message: 'changeFromQuantity is required' }],
        },
      },
    };
  d.inventorySets.push(v.input);
  return { data: { inventorySetQuantities: { inventoryAdjustmentGroup: { reason: 'correction' }, userErrors: [] } } };
}
