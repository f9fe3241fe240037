import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The carrier webhooks' data access (issue 38): the labels a refund event names, the tracking
// events recorded once each and the shipment status they move (carrier-webhooks.ts). The rules
// (which event moves what, and what is announced) stay there.

type Client = Db['prisma'] | TxClient;

/** A label the refund event names that is still valid here (not voided, no refund asked). */
export function findLiveLabel(client: Client, where: Prisma.ShippingLabelWhereInput) {
  return client.shippingLabel.findFirst({ where: { ...where, voided_at: null, refund_status: null } });
}

/** The labels matching `where` set to this refund status, returned whole. */
export function setLabelsRefundStatus(tx: TxClient, where: Prisma.ShippingLabelWhereInput, refundStatus: string) {
  return tx.shippingLabel.updateManyAndReturn({ where, data: { refund_status: refundStatus } });
}

/** The team's valid label of this tracking code bought through the integration, with its package and fulfillment. */
export function findTrackedLabel(tx: TxClient, teamId: string, integrationId: string, code: string) {
  return tx.shippingLabel.findFirst({
    where: { fulfiller_team_id: teamId, tracking_code: code, carrier_integration_id: integrationId, voided_at: null },
    include: { package: { select: { id: true, fulfillment_order_id: true, fulfillment: { select: { id: true, order_id: true } } } } },
  });
}

/** Which of these dedupe keys are recorded already. */
export async function recordedDedupeKeys(tx: TxClient, keys: string[]): Promise<string[]> {
  const rows = await tx.trackingEvent.findMany({ where: { dedupe_key: { in: keys } }, select: { dedupe_key: true } });
  return rows.map((r) => r.dedupe_key);
}

export function insertTrackingEvents(tx: TxClient, data: Prisma.TrackingEventCreateManyInput[]) {
  return tx.trackingEvent.createMany({ data });
}

/** The label's newest tracking event (by occurred_at, then id). */
export function findNewestTrackingEvent(tx: TxClient, packageId: string, labelId: string) {
  return tx.trackingEvent.findFirst({
    where: { package_id: packageId, shipping_label_id: labelId },
    orderBy: [{ occurred_at: 'desc' }, { id: 'desc' }],
  });
}

/** Compare-and-set on the label's shipment status (`was` -> `status`); the count changed (0 or 1). */
export async function moveLabelShipmentStatus(tx: TxClient, labelId: string, was: string, status: string): Promise<number> {
  const { count } = await tx.shippingLabel.updateMany({ where: { id: labelId, shipment_status: was }, data: { shipment_status: status } });
  return count;
}

/** The package's shipment status, while it has one (a voided label cleared it). */
export async function setPackageShipmentStatus(tx: TxClient, packageId: string, status: string) {
  await tx.package.updateMany({ where: { id: packageId, shipment_status: { not: null } }, data: { shipment_status: status } });
}

/** What a tracking push names of the order. */
export function findOrderForPush(tx: TxClient, orderId: string) {
  return tx.order.findUnique({ where: { id: orderId }, select: { id: true, order_number: true, remote_id: true, shop_id: true } });
}

/** The team's package's id (null: not the team's or absent). */
export function findTeamPackageId(client: Client, teamId: string, id: string) {
  return client.package.findFirst({ where: { id, fulfiller_team_id: teamId }, select: { id: true } });
}

/** One page of a package's tracking events (the page's where, order and window from pageArgs). */
export function findTrackingEvents(client: Client, args: Prisma.TrackingEventFindManyArgs) {
  return client.trackingEvent.findMany(args);
}
