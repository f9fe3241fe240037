import type { Db, TxClient } from '../../../db/types.js';

// What a tracking push reads and records (tracking.ts; issue 38 item 4): the order's platform
// id, the label of its tracking number, what of the order is still open, the outbox event's
// attempts, and the push's row shown on the order (channel_pushes). Each function is one
// statement on the client given.

type Client = Db['prisma'] | TxClient;

/** How many times the outbox has tried the event. */
export function eventAttempts(client: Client, eventId: string) {
  return client.outboxEvent.findUnique({ where: { id: eventId }, select: { attempts: true } });
}

/** The push's row of the event written (created with its order and shop when new). */
export function savePush(
  client: Client,
  eventId: string,
  first: { order_id: string; shop_id: string },
  data: { status: string; detail: string; attempts: number },
) {
  return client.channelPush.upsert({
    where: { event_id: eventId },
    create: { event_id: eventId, ...first, ...data },
    update: data,
  });
}

/** The order's platform id and number. */
export function orderRemote(client: Client, id: string) {
  return client.order.findUniqueOrThrow({ where: { id }, select: { remote_id: true, order_number: true } });
}

/** The carrier integration of the team's label of that tracking number. */
export function labelOfTracking(client: Client, trackingCode: string, fulfillerTeamId: string) {
  return client.shippingLabel.findFirst({
    where: { tracking_code: trackingCode, fulfiller_team_id: fulfillerTeamId },
    select: { carrier_integration_type: true, carrier_integration_id: true },
  });
}

/** The units of the order's CORE lines still to ship, summed. */
export function openQuantity(client: Client, orderId: string) {
  return client.orderLineItem.aggregate({
    where: { order_id: orderId, kind: 'CORE' },
    _sum: { remaining_quantity: true },
  });
}
