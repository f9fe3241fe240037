import type { Db, Prisma, TxClient } from '../../db/types.js';
import { DomainError, notFound } from '../errors.js';
import { enqueueEvent, enqueueForParties } from '../events/index.js';
import { transaction } from '../../db/tx.js';
import { recordVoid } from './label-void.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { carrierConnectorOrNull } from '../../connectors/carriers/registry.js';
import type { TrackEntry, TrackerUpdate } from '../../connectors/carriers/types.js';
import { credentialsOf, dedupeKey, testLabelFlag } from '../carrier-integrations/index.js';
import { findIntegration } from './store/carriers.js';
import {
  findLiveLabel,
  findNewestTrackingEvent,
  findOrderForPush,
  findTeamPackageId,
  findTrackedLabel,
  findTrackingEvents,
  insertTrackingEvents,
  moveLabelShipmentStatus,
  recordedDedupeKeys,
  setLabelsRefundStatus,
  setPackageShipmentStatus,
} from './store/tracking.js';

// POST /v1/carriers/{integration_id}/webhooks: a carrier platform's tracker and refund events.
// The signature is checked on the raw body first (the connector's webhooks.verify,
// src/connectors/carriers/<name>/webhook.ts); a bad one changes nothing (401). Tracking events are recorded once each (dedupe_key) and the label's shipment_status
// follows the newest event, so events arriving out of order never move it back; each change
// emits shipment.status_changed to the fulfiller and the merchant team, and, for a fulfilled
// order that came from a shop, a tracking.push carrying the new shipment_status that the outbox
// sends to the shop (src/domain/channels/tracking.ts). Refund events move refund_status
// (SUBMITTED -> REFUNDED/REJECTED).

export interface WebhookRequest {
  body: string;
  headers: Record<string, string | string[] | undefined>;
  token?: string;
}

export async function receiveCarrierWebhook(db: Db, integrationId: string, req: WebhookRequest) {
  const row = await findIntegration(db.prisma, integrationId);
  const hooks = row ? carrierConnectorOrNull(row.type)?.webhooks : undefined;
  if (!row || !hooks) throw notFound('Carrier integration', integrationId);
  const secret = row.credentials_sealed ? credentialsOf(row)?.webhook_secret : undefined;
  const ok = !!secret && hooks.verify(secret, req);
  if (!ok) throw new DomainError('unauthorized', "The webhook signature does not verify with this integration's webhook secret.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(req.body);
  } catch {
    throw new DomainError('validation-failed', 'The webhook body is not JSON.', { errors: [{ path: 'body', message: 'is not JSON' }] });
  }
  const update = hooks.parse(parsed);
  const applied = await apply(db, row.team_id, row.id, update);
  return { received: true, applied };
}

async function apply(db: Db, teamId: string, integrationId: string, u: TrackerUpdate): Promise<boolean> {
  if (u.kind === 'ignored') return false;
  if (u.kind === 'refund') {
    const where: Prisma.ShippingLabelWhereInput = {
      fulfiller_team_id: teamId,
      carrier_integration_id: integrationId,
      voided_at: { not: null },
      refund_status: 'SUBMITTED',
      OR: (
        [
          u.remote_id ? { remote_id: u.remote_id } : null,
          u.remote_transaction_id ? { remote_transaction_id: u.remote_transaction_id } : null,
          u.tracking_code ? { tracking_code: u.tracking_code } : null,
        ] as Array<Prisma.ShippingLabelWhereInput | null>
      ).filter((c): c is Prisma.ShippingLabelWhereInput => c !== null),
    };
    if (u.refund_status === 'SUBMITTED') return false;
    // A refund fos asked for but whose answer was lost left the label valid here: the carrier's
    // refund.successful voids it now (same compare-and-set as a void), so both sides agree.
    if (u.refund_status === 'REFUNDED') {
      const live = await findLiveLabel(db.prisma, where);
      if (live) {
        await recordVoid(db, teamId, live.package_id, 'REFUNDED').catch((e) => {
          if (!(e instanceof DomainError)) throw e;
        });
      }
    }
    return transaction(db, async (tx) => {
      const [label] = await setLabelsRefundStatus(tx, where, u.refund_status);
      if (!label) return false;
      await enqueueForParties(
        tx,
        { team_id: label.fulfiller_team_id, merchant_team_id: label.merchant_team_id },
        'shipping_label.refund_updated',
        {
          package_id: label.package_id,
          shipping_label_id: label.id,
          tracking_code: label.tracking_code,
          test_label: testLabelFlag(label),
          refund_status: u.refund_status,
        },
      );
      return true;
    });
  }
  if (!u.entries.length) return false;
  return transaction(db, (tx) => recordTracking(tx, teamId, integrationId, u.tracking_code, u.entries));
}

async function recordTracking(tx: TxClient, teamId: string, integrationId: string, code: string, entries: TrackEntry[]): Promise<boolean> {
  const label = await findTrackedLabel(tx, teamId, integrationId, code);
  if (!label) return false;
  const keyed = entries.map((e) => ({ e, key: dedupeKey(integrationId, code, e) }));
  const seen = new Set(
    await recordedDedupeKeys(
      tx,
      keyed.map((k) => k.key),
    ),
  );
  const fresh = keyed.filter((k) => !seen.has(k.key) && !(seen.add(k.key), false));
  if (fresh.length) {
    await insertTrackingEvents(
      tx,
      fresh.map(({ e, key }) => ({
        shipping_label_id: label.id,
        package_id: label.package_id,
        team_id: teamId,
        integration_id: integrationId,
        status: e.status,
        provider_status: e.provider_status,
        message: e.message,
        occurred_at: e.occurred_at,
        location: (e.location ?? undefined) as never,
        dedupe_key: key,
      })),
    );
  }
  const newest = await findNewestTrackingEvent(tx, label.package_id, label.id);
  if (!newest || newest.status === label.shipment_status) return fresh.length > 0;
  // Compare-and-set on the status read, so two deliveries racing emit one change each at most.
  const count = await moveLabelShipmentStatus(tx, label.id, label.shipment_status, newest.status);
  if (!count) return fresh.length > 0;
  await setPackageShipmentStatus(tx, label.package_id, newest.status);
  await enqueueForParties(tx, { team_id: label.fulfiller_team_id, merchant_team_id: label.merchant_team_id }, 'shipment.status_changed', {
    package_id: label.package_id,
    shipping_label_id: label.id,
    fulfillment_order_id: label.package.fulfillment_order_id,
    fulfillment_id: label.package.fulfillment?.id ?? null,
    order_id: label.package.fulfillment?.order_id ?? null,
    tracking_code: code,
    tracking_url: label.tracking_url,
    test_label: testLabelFlag(label),
    carrier_id: label.carrier_id,
    previous_status: label.shipment_status,
    shipment_status: newest.status,
    message: newest.message,
    occurred_at: newest.occurred_at,
  });
  await pushToShop(tx, label, newest);
  return true;
}

/** The shop that sold a fulfilled order hears of the new status (a tracking.push the outbox sends). */
async function pushToShop(
  tx: TxClient,
  label: {
    fulfiller_team_id: string;
    tracking_code: string | null;
    tracking_url: string | null;
    carrier_name: string | null;
    carrier_integration_type: string | null;
    carrier_integration_id: string | null;
    package: { id: string; fulfillment: { id: string; order_id: string } | null };
  },
  newest: { status: string; message: string | null; occurred_at: Date },
) {
  const f = label.package.fulfillment;
  if (!f) return; // not shipped yet: the fulfill's own push carries the tracking
  const order = await findOrderForPush(tx, f.order_id);
  if (!order?.shop_id) return;
  await enqueueEvent(tx, label.fulfiller_team_id, 'tracking.push', {
    shipment_status: newest.status,
    message: newest.message,
    occurred_at: newest.occurred_at.toISOString(),
    tracking: { tracking_code: label.tracking_code, tracking_url: label.tracking_url, carrier: label.carrier_name },
    test_label: testLabelFlag(label),
    order: { id: order.id, order_number: order.order_number, remote_id: order.remote_id },
    fulfillment: { id: f.id, package_id: label.package.id },
  });
}

export async function listTrackingEvents(db: Db, teamId: string, packageId: string, page: PageRequest) {
  const pkg = await findTeamPackageId(db.prisma, teamId, packageId);
  if (!pkg) throw notFound('Package', packageId);
  const orderBy = [{ occurred_at: 'asc' }, { id: 'asc' }];
  const rows = await findTrackingEvents(db.prisma, pageArgs(page, { package_id: packageId }, orderBy));
  const p = toPage(rows, page, undefined, orderBy);
  return {
    data: p.data.map((r) => ({
      id: r.id,
      package_id: r.package_id,
      shipping_label_id: r.shipping_label_id,
      status: r.status,
      provider_status: r.provider_status,
      message: r.message,
      location: (r.location as Record<string, unknown> | null) ?? null,
      occurred_at: r.occurred_at,
      created_at: r.created_at,
    })),
    meta: p.meta,
  };
}
