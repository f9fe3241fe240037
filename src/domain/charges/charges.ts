import type { Charge, Db, Prisma, TxClient } from '../../db/types.js';
import { conflict, DomainError, invalid, notFound } from '../errors.js';
import { enqueueEvent, enqueueEvents } from '../events/index.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { chargePayload, pricingRecord, type PricingInputs } from './pricing-record.js';
import { parseRateCard, priceReceiving, priceJsonCardStorage, type Pricing, type RateCard, type RatePeriod } from './rate-card.js';
import { transaction } from '../../db/tx.js';
import { txNow, txStamps } from '../clock.js';
import { chargeBillingWhere, type ChargeBillingFilters } from './charge-filters.js';
import type { Delegation } from './billing.js';
import { billPurchaseOrderReceipt, billReturnReceipt } from './event-billing.js';
import type { ChargeCategory } from './rate-card.js';
import {
  createCharge,
  findChargeById,
  findChargePage,
  findFulfillerCharge,
  findTeamLocationType,
  findTeamWarehouse,
  updateChargeIfUnchanged,
} from './store/charges.js';
import { findActiveDelegation, findDelegationBetween, findFulfillerDelegation } from './store/delegations.js';

// Storage and receiving charges, entered by the fulfiller (spec 4.8), priced from the rate card
// of the fulfillment delegation that links the merchant to the calling fulfiller team.

export interface DelegationRef {
  fulfillment_delegation_id?: string;
  merchant_team_id?: string;
}

export interface StorageInput extends DelegationRef {
  data: { name: string; location_type_id: string; warehouse_id: string; rate_period: RatePeriod; quantity: number };
}

export interface ReceivingInput {
  fulfillment_delegation_id: string;
  data: { name: string; quantity: number; purchase_order_id: string };
}

export interface ReceivingPatch {
  data: { name?: string; quantity?: number; purchase_order_id?: string };
}

const MANUAL_INPUTS = (category: 'STORAGE' | 'RECEIVING'): PricingInputs => ({
  category,
  origination: 'MANUAL',
  shipping_label: null,
  order: null,
});

/** The delegation named by id or by merchant team; it must belong to the calling fulfiller team. */
async function delegationFor(tx: TxClient, fulfillerTeamId: string, ref: DelegationRef) {
  if (Boolean(ref.fulfillment_delegation_id) === Boolean(ref.merchant_team_id)) {
    throw new DomainError('validation-failed', 'Give exactly one of fulfillment_delegation_id and merchant_team_id.', {
      errors: [{ path: 'body', message: 'exactly one of fulfillment_delegation_id and merchant_team_id is required' }],
    });
  }
  const delegation = ref.fulfillment_delegation_id
    ? await findFulfillerDelegation(tx, fulfillerTeamId, ref.fulfillment_delegation_id)
    : await findDelegationBetween(tx, ref.merchant_team_id!, fulfillerTeamId);
  if (!delegation) {
    throw ref.fulfillment_delegation_id
      ? notFound('Fulfillment delegation', ref.fulfillment_delegation_id)
      : notFound('Merchant team delegated to this team', ref.merchant_team_id);
  }
  if (!delegation.active) throw conflict(`Fulfillment delegation ${delegation.id} is not active.`);
  return delegation;
}

function cardOf(delegation: { id: string; rate_card: unknown }): RateCard {
  const card = parseRateCard(delegation.rate_card);
  if (!card) throw conflict(`Fulfillment delegation ${delegation.id} has no usable rate card, so the charge cannot be priced.`);
  return card;
}

function requireMatch(pricing: Pricing): Pricing {
  if (!pricing.matched) throw conflict(`${pricing.calculation_note} No charge was recorded.`);
  return pricing;
}

/** Tells both sides of a new charge (charge.created): the fulfiller who billed and the merchant billed. */
export async function announceCharge(tx: TxClient, charge: Charge) {
  const payload = chargePayload(charge);
  const text = JSON.stringify(payload); // once for both events
  await enqueueEvents(tx, [
    { teamId: charge.fulfiller_team_id, kind: 'charge.created', payload, text },
    { teamId: charge.merchant_team_id, kind: 'charge.created', payload, text },
  ]);
  return charge;
}

export function createStorageCharge(db: Db, teamId: string, input: StorageInput) {
  return transaction(db, async (tx) => {
    const delegation = await delegationFor(tx, teamId, input);
    const { data } = input;
    const warehouse = await findTeamWarehouse(tx, teamId, data.warehouse_id);
    const locationType = await findTeamLocationType(tx, teamId, data.location_type_id);
    if (!warehouse) throw notFound('Warehouse', data.warehouse_id);
    if (!locationType) throw notFound('Location type', data.location_type_id);
    const card = cardOf(delegation);
    const pricing = requireMatch(priceJsonCardStorage(card, data));
    const charge = await createCharge(tx, {
      ...enteredCharge(tx, teamId, delegation, card, 'STORAGE', data, pricing),
      warehouse_id: warehouse.id,
      warehouse_name: warehouse.name,
      location_type_id: locationType.id,
      location_type_name: locationType.name,
      rate_period: data.rate_period,
    });
    return announceCharge(tx, charge);
  });
}

export function createReceivingCharge(db: Db, teamId: string, input: ReceivingInput) {
  return transaction(db, async (tx) => {
    const delegation = await delegationFor(tx, teamId, { fulfillment_delegation_id: input.fulfillment_delegation_id });
    return announceCharge(tx, await receivingCharge(tx, teamId, delegation, cardOf(delegation), input.data));
  });
}

/**
 * The receiving charge of a purchase-order receipt, inside the receipt's transaction; null (no
 * charge, the receipt still stands) when the delegation is inactive or its rate card cannot price it.
 */
export async function billReceipt(tx: TxClient, teamId: string, delegationId: string, data: ReceiptCharge) {
  const delegation = await findActiveDelegation(tx, teamId, delegationId);
  if (delegation?.rate_card_id) return (await billReceiptByCard(tx, delegation, data))[0] ?? null;
  const card = delegation ? parseRateCard(delegation.rate_card) : null;
  if (!delegation || !card || !priceReceiving(card, data).matched) return null;
  return announceCharge(tx, await receivingCharge(tx, teamId, delegation, card, data));
}

/** What a receipt bills: purchase-order receipts name the order, returns the return. */
export interface ReceiptCharge {
  name: string;
  quantity: number;
  purchase_order_id?: string;
  return_id?: string;
  /** For a versioned card (docs/billing.md): the receipt's id, its product lines, its warehouse, a return's units received so far. */
  receipt_id?: string;
  lines?: number;
  warehouse_id?: string | null;
  warehouse_name?: string | null;
  received_total?: number;
}

/** A receipt billed by a versioned card: a return's RETURN fee, or a purchase order's RECEIVING and RECEIVING_PO fees. */
function billReceiptByCard(tx: TxClient, d: Delegation, data: ReceiptCharge) {
  const at = txNow(tx);
  const common = {
    name: data.name,
    units: data.quantity,
    lines: data.lines ?? 0,
    warehouse_id: data.warehouse_id ?? null,
    warehouse_name: data.warehouse_name ?? null,
  };
  if (data.return_id) {
    return billReturnReceipt(tx, d, { ...common, return_id: data.return_id, received_total: data.received_total ?? data.quantity }, at);
  }
  const receipt_id = data.receipt_id ?? `${data.purchase_order_id}:${at.toISOString()}`;
  return billPurchaseOrderReceipt(tx, d, { ...common, receipt_id, purchase_order_id: data.purchase_order_id! }, at);
}

async function receivingCharge(
  tx: TxClient,
  teamId: string,
  delegation: { id: string; merchant_team_id: string },
  card: RateCard,
  data: ReceiptCharge,
) {
  const pricing = requireMatch(priceReceiving(card, data));
  return createCharge(tx, {
    ...enteredCharge(tx, teamId, delegation, card, 'RECEIVING', data, pricing),
    purchase_order_id: data.purchase_order_id ?? null,
    return_id: data.return_id ?? null,
  });
}

/** The fields every charge a fulfiller enters shares: who bills whom, what, and the card's price of it. */
function enteredCharge(
  tx: TxClient,
  teamId: string,
  delegation: { id: string; merchant_team_id: string },
  card: RateCard,
  category: 'STORAGE' | 'RECEIVING',
  data: { name: string; quantity: number },
  pricing: Pricing,
) {
  return {
    name: data.name,
    category,
    currency: card.currency,
    quantity: data.quantity,
    calculated_amount: pricing.calculated_amount,
    original_amount: pricing.original_amount,
    merchant_team_id: delegation.merchant_team_id,
    fulfiller_team_id: teamId,
    fulfillment_delegation_id: delegation.id,
    ...jsonPricing(card, MANUAL_INPUTS(category), pricing),
    ...txStamps(tx),
  };
}

/** Changes name / quantity / purchase order of a RECEIVING charge and reprices it from the current rate card. */
export function updateReceivingCharge(db: Db, teamId: string, chargeId: string, patch: ReceivingPatch) {
  return transaction(db, async (tx) => {
    const current = await findFulfillerCharge(tx, teamId, chargeId);
    if (!current) throw notFound('Charge', chargeId);
    if (current.category !== 'RECEIVING') {
      throw conflict(`Charge ${chargeId} is a ${current.category} charge; only RECEIVING charges are updated here.`);
    }
    if (!current.fulfillment_delegation_id) throw conflict(`Charge ${chargeId} has no fulfillment delegation to price it.`);
    const delegation = await delegationFor(tx, teamId, { fulfillment_delegation_id: current.fulfillment_delegation_id });
    const card = cardOf(delegation);
    const quantity = patch.data.quantity ?? current.quantity;
    const pricing = requireMatch(priceReceiving(card, { quantity }));
    // Compare-and-set on updated_at: a concurrent change makes this one fail instead of being lost.
    const { count } = await updateChargeIfUnchanged(tx, current.id, current.updated_at, {
      name: patch.data.name ?? current.name,
      purchase_order_id: patch.data.purchase_order_id ?? current.purchase_order_id,
      quantity,
      currency: card.currency,
      calculated_amount: pricing.calculated_amount,
      original_amount: pricing.original_amount,
      ...jsonPricing(card, MANUAL_INPUTS('RECEIVING'), pricing),
    });
    if (count !== 1) throw conflict(`Charge ${chargeId} was changed concurrently; retry.`);
    const charge = await findChargeById(tx, current.id);
    const payload = chargePayload(charge);
    await enqueueEvent(tx, charge.fulfiller_team_id, 'charge.updated', payload);
    await enqueueEvent(tx, charge.merchant_team_id, 'charge.updated', payload);
    return charge;
  });
}

export function jsonPricing(card: RateCard, inputs: PricingInputs, pricing: Pricing) {
  const { pricing_config, pricing_trace } = pricingRecord(card, inputs, pricing);
  return { pricing_config: pricing_config as Prisma.InputJsonValue, pricing_trace: pricing_trace as unknown as Prisma.InputJsonValue };
}

export async function getCharge(db: Db, teamId: string, chargeId: string) {
  const charge = await findFulfillerCharge(db.prisma, teamId, chargeId);
  if (!charge) throw notFound('Charge', chargeId);
  return charge;
}

export interface ChargeListQuery extends PageRequest, ChargeBillingFilters {
  category?: ChargeCategory;
  merchant_team_id?: string;
  order_id?: string;
  order?: 'asc' | 'desc';
}

export async function listCharges(db: Db, teamId: string, q: ChargeListQuery) {
  if (q.page < 0) throw invalid('query.page', 'must be >= 0');
  const where: Prisma.ChargeWhereInput = { fulfiller_team_id: teamId, ...chargeBillingWhere(q) };
  if (q.category) where.category = q.category;
  if (q.merchant_team_id) where.merchant_team_id = q.merchant_team_id;
  if (q.order_id) where.order_id = q.order_id;
  const dir = q.order ?? 'desc';
  const orderBy = [{ created_at: dir }, { id: dir }];
  const rows = await findChargePage(db.prisma, pageArgs(q, where, orderBy));
  return toPage(rows, q, undefined, orderBy);
}
