import { transaction } from '../../db/tx.js';
import { createHash } from 'node:crypto';
import type { Db, Prisma } from '../../db/types.js';
import * as store from './store.js';
import { notFound } from '../errors.js';
import { placeHold } from '../orders/index.js';
import { getOrder } from '../orders/index.js';
import { convertDraftOrder } from '../orders/index.js';
import { editOrder, type OrderEdit } from '../orders/index.js';
import { addressVerifierTypes, carrierConnector } from '../../connectors/carriers/registry.js';
import type { AddressCheck } from '../../connectors/carriers/types.js';
import { accountOf } from './integrations.js';
import { asAddress, type Address } from '../orders/index.js';
import type { OutboundPolicy } from './outbound.js';

// Address verification through the team's first integration whose connector verifies addresses
// (EasyPost, src/connectors/carriers/easypost/address.ts): the order's address_verified,
// address_residential, address_verified_at, address_hash and address_verification_response (spec 2.6). An address that fails puts the order
// on an ADDRESS_VERIFICATION_FAILED hold, released by an operator after a fix or an explicit
// override. Results are cached by address_hash, so an unchanged address costs no call. A locked
// address (lock_address) is neither re-verified nor held: the operator has settled it.

const FIELDS = ['address1', 'address2', 'city', 'state', 'zip', 'country'] as const;

export function addressHash(a: Address): string {
  const norm = FIELDS.map((f) =>
    String((a as Record<string, unknown>)[f] ?? '')
      .trim()
      .toUpperCase()
      .replace(/\s+/g, ' '),
  );
  return createHash('sha256').update(JSON.stringify(norm)).digest('hex');
}

type Response = AddressCheck;

async function verifier(db: Db, teamId: string) {
  return store.findVerifier(db.prisma, teamId, { in: addressVerifierTypes() });
}

async function verifyRemote(db: Db, teamId: string, a: Address, hash: string, policy: OutboundPolicy): Promise<Response | null> {
  const cached = await store.findCachedVerification(db.prisma, teamId, hash);
  if (cached) return cached.response as unknown as Response;
  const row = await verifier(db, teamId);
  if (!row) return null;
  const response = await carrierConnector(row.type).verifyAddress!(accountOf(db, row, policy), a);
  await store
    .insertVerification(db.prisma, {
      team_id: teamId,
      integration_id: row.id,
      address_hash: hash,
      response: response as unknown as Prisma.InputJsonValue,
      verified: response.verified,
      residential: response.residential,
    })
    .catch((e: { code?: string }) => {
      if (e?.code !== 'P2002') throw e;
    }); // a concurrent verification cached it first
  return response;
}

/** Verifies the order's shipping address (cached by hash); returns the order as presented. */
export async function verifyOrderAddress(db: Db, teamId: string, orderId: string, policy: OutboundPolicy) {
  const order = await store.findTeamOrder(db.prisma, teamId, orderId);
  if (!order) throw notFound('Order', orderId);
  const addr = asAddress(order.shipping_address);
  if (!order.lock_address && addr.address1) {
    const hash = addressHash(addr);
    const response = await verifyRemote(db, teamId, addr, hash, policy);
    if (response) await record(db, orderId, hash, response);
  }
  return getOrder(db, teamId, orderId);
}

async function record(db: Db, orderId: string, hash: string, r: Response) {
  await transaction(db, async (tx) => {
    // Once per address: the compare-and-set on address_hash makes a repeated or concurrent
    // verification of the same address record (and hold) nothing more.
    const { count } = await store.recordOrderVerification(tx, orderId, hash, {
      address_verified: r.verified,
      address_residential: r.residential,
      address_verified_at: new Date(),
      address_hash: hash,
      address_verification_response: r as unknown as Prisma.InputJsonValue,
    });
    if (!count || r.verified) return;
    // An edit to another failing address while the first hold is still open adds no second hold.
    const open = await store.countActiveAddressHolds(tx, orderId);
    if (open) return;
    const why =
      r.errors
        .map((e: { message: string }) => e.message)
        .filter(Boolean)
        .join('; ') || 'the carrier could not verify the address';
    await placeHold(tx, {
      orderId,
      reason: 'ADDRESS_VERIFICATION_FAILED',
      notes: `Address verification failed: ${why}. Fix the address or release the hold to ship it as is.`,
    });
  });
}

/** Conversion's automatic verification: on unless the order's config turns it off; never fails the conversion. */
export async function verifyAfterConvert(
  db: Db,
  teamId: string,
  order: { id: string; config?: unknown },
  policy: OutboundPolicy,
  log?: { warn(o: object, m: string): void },
) {
  const config = (order.config ?? {}) as Record<string, unknown>;
  if (config.address_verification_enabled === false) return null;
  try {
    return await verifyOrderAddress(db, teamId, order.id, policy);
  } catch (err) {
    log?.warn({ err, order_id: order.id }, 'address verification failed; the order stays unverified');
    return null;
  }
}

/** Converting a draft order verifies its address when the team has a verifier (EasyPost). */
export async function convertAndVerify(
  db: Db,
  teamId: string,
  draftId: string,
  policy: OutboundPolicy,
  log?: { warn(o: object, m: string): void },
) {
  const order = await convertDraftOrder(db, teamId, draftId);
  return (await verifyAfterConvert(db, teamId, order as { id: string; config?: unknown }, policy, log)) ?? order;
}

/**
 * Editing an order's shipping address verifies the new one like a conversion does. The edit stores
 * the offline format check's hash, never the platform's, so the compare-and-set in record() lets
 * this verification land (from the cache when the address was verified before).
 */
export async function editAndVerify(
  db: Db,
  teamId: string,
  orderId: string,
  edit: OrderEdit,
  policy: OutboundPolicy,
  log?: { warn(o: object, m: string): void },
) {
  const order = await editOrder(db, teamId, orderId, edit);
  if (!edit.shipping_address) return order;
  return (await verifyAfterConvert(db, teamId, order as { id: string; config?: unknown }, policy, log)) ?? order;
}
