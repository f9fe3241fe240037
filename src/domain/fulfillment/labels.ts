import { assertPackageNotHeld } from '../orders/hold-actions.js';
import { DbNull } from '@prisma/client/runtime/client';
import type { Db, Prisma, TxClient } from '../../db/types.js';
import { conflict, DomainError, invalid, notFound } from '../errors.js';
import { enqueueEvent } from '../events/outbox.js';
import { carrierAdapters, type CarrierAdapter, type PurchasedLabel, type Rate, type RatePackage } from './carriers/index.js';
import { carrierSlug, trackingUrl } from './carriers/tracking.js';
import { asAddress } from './lookups.js';
import { presentWrittenPackage, type PackageView } from './package-view.js';
import { writeTx } from './tx.js';
import { labelDocumentUrl, labelWithPackingSlipUrl, type LabelFormat } from '../documents/urls.js';

// Labels: upload an externally generated one, or shop rates across the carrier adapters and
// buy the cheapest. Carrier calls happen outside the database transaction; attaching the label
// is a compare-and-set on the package (PENDING and not yet labelled) plus the unique
// ShippingLabel.package_id, so a package is labelled at most once.

export interface LabelInput {
  // upload of an externally generated label: all six together
  label_url?: string;
  tracking_number?: string;
  carrier?: string;
  service?: string;
  cost?: number;
  cost_currency?: string;
  tracking_url?: string;
  // or rate shopping
  rate_strategy?: 'CHEAPEST';
  carrier_id?: string;
  service_id?: string;
  /** Document format of a bought label's label_url: PDF (default) or ZPL for thermal printers. */
  label_format?: LabelFormat;
}

const UPLOAD_FIELDS = ['label_url', 'tracking_number', 'carrier', 'service', 'cost', 'cost_currency'] as const;
type Upload = Required<Pick<LabelInput, (typeof UPLOAD_FIELDS)[number]>> & { tracking_url?: string };

/** The upload fields when the body is an upload (all six present), null for rate shopping. */
function uploadOf(input: LabelInput): Upload | null {
  const given = UPLOAD_FIELDS.filter((f) => input[f] !== undefined);
  if (!given.length && input.tracking_url === undefined) return null;
  const missing = UPLOAD_FIELDS.filter((f) => input[f] === undefined);
  if (missing.length) {
    throw new DomainError('validation-failed', `An uploaded label needs ${UPLOAD_FIELDS.join(', ')}; missing: ${missing.join(', ')}.`,
      { errors: missing.map((f) => ({ path: `body.${f}`, message: 'is required for an uploaded label' })) });
  }
  for (const f of ['rate_strategy', 'carrier_id', 'service_id'] as const) {
    if (input[f] !== undefined) throw invalid(`body.${f}`, 'cannot be combined with an uploaded label');
  }
  return input as Upload;
}

type PackageRecord = NonNullable<Awaited<ReturnType<typeof readPackage>>>;

function readPackage(client: Db['prisma'] | TxClient, teamId: string, id: string) {
  return client.package.findFirst({ where: { id, fulfiller_team_id: teamId } });
}

function refuse(pkg: { id: string; status: string; shipment_status: string | null }): void {
  if (pkg.status !== 'PENDING') throw conflict(`Package ${pkg.id} is ${pkg.status}; fulfilled packages cannot be labelled.`);
  // shipment_status is set with a label and cleared when it is voided (label-void.ts): a voided
  // label does not count, relabelling replaces it.
  if (pkg.shipment_status) throw conflict(`Package ${pkg.id} already has a shipping label.`);
}

/**
 * `origin` (scheme://host of the request) makes a bought label's label_url absolute: it is this
 * server's label document (GET /v1/ops/packages/{id}/label), PDF or ZPL, and its
 * label_with_packing_slip_url the label followed by the packing slip.
 */
export async function labelPackage(db: Db, teamId: string, id: string, input: LabelInput, origin = ''): Promise<PackageView> {
  // An uploaded label needs nothing from the package before its compare-and-set, which refuses
  // as this check would (and then explains why); rate shopping reads the package to quote it.
  const upload = uploadOf(input);
  await assertPackageNotHeld(db.prisma, teamId, id); // before a label is bought: no labels while the order is on hold
  const pre = upload ? null : await readPackage(db.prisma, teamId, id);
  if (!upload) {
    if (!pre) throw notFound('Package', id);
    refuse(pre);
  }

  let label: PurchasedLabel;
  let integration = { id: null as string | null, name: null as string | null, type: null as string | null, rateId: null as string | null };
  let adapter: CarrierAdapter | undefined;
  let combined: string | null = null; // an uploaded label is someone else's document: nothing to combine
  if (upload) {
    const input = upload;
    label = {
      tracking_code: input.tracking_number,
      tracking_url: input.tracking_url ?? trackingUrl(input.carrier, input.tracking_number),
      label_url: input.label_url,
      remote_id: null,
      price: input.cost,
      currency: input.cost_currency.toUpperCase(),
      formatted_service: `${input.carrier} ${input.service}`,
      carrier_name: input.carrier,
      carrier_id: carrierSlug(input.carrier),
      service_id: carrierSlug(input.service),
      delivery_days: null,
      delivery_date: null,
      delivery_date_guaranteed: false,
      zone: null,
    };
  } else {
    const pkg = pre!;
    const strategy = input.rate_strategy ?? pkg.rate_strategy;
    if (!strategy && !input.service_id) {
      throw invalid('body.rate_strategy', 'is required (the package has none): send an uploaded label (label_url, tracking_number, carrier, service, cost, cost_currency) or rate_strategy CHEAPEST');
    }
    const bought = await shopAndBuy(db, teamId, pkg, input);
    ({ label, adapter } = bought);
    // The request's format, else the warehouse's default when the package was made (admin warehouse label-format).
    const format = input.label_format ?? (pkg.label_format === 'ZPL' ? 'ZPL' : 'PDF');
    label = { ...label, label_url: labelDocumentUrl(origin, id, format) };
    combined = labelWithPackingSlipUrl(origin, id);
    integration = { id: adapter.id, name: adapter.name, type: adapter.type, rateId: bought.rate.provider_rate_id };
  }

  try {
    return await writeTx(db, async (tx) => {
      // The compare-and-set, first for a package that was never labelled (the common case: no
      // label row to replace), then for one whose label was voided (replaced below). Labelling is
      // the only writer of a package's carrier_id (never null on a label), and a void keeps it, so
      // a null carrier_id means no label row; a filter on the label itself would be a NOT IN over
      // every label on PostgreSQL.
      const claim = (fresh: boolean) => tx.package.updateManyAndReturn({
        where: { id, fulfiller_team_id: teamId, status: 'PENDING', shipment_status: null, ...(fresh ? { carrier_id: null } : {}) },
        data: {
          shipment_status: 'LABEL_PRINTED',
          carrier_id: label.carrier_id,
          service_id: label.service_id,
          formatted_service: label.formatted_service,
          provider_rate_id: integration.rateId,
          carrier_integration_id: integration.id,
          carrier_integration_name: integration.name,
          carrier_integration_type: integration.type ?? 'GENERIC',
          deliver_by: label.delivery_date,
          rate_error_data: DbNull,
          error_message: null,
        },
      });
      let [labelled] = await claim(true);
      const replacing = !labelled;
      if (replacing) [labelled] = await claim(false);
      if (!labelled) {
        const now = await readPackage(tx, teamId, id);
        if (!now) throw notFound('Package', id);
        refuse(now);
        throw conflict(`Package ${id} changed while it was being labelled; try again.`);
      }
      await assertPackageNotHeld(tx, teamId, id); // a hold placed while the label was bought
      // The package CAS above holds the row, so only a voided label can be here; it is replaced.
      if (replacing) await tx.shippingLabel.deleteMany({ where: { package_id: id, voided_at: { not: null } } });
      const created = await tx.shippingLabel.create({
        data: {
          package_id: id,
          fulfiller_team_id: labelled.fulfiller_team_id,
          merchant_team_id: labelled.merchant_team_id,
          tracking_code: label.tracking_code,
          tracking_url: label.tracking_url,
          label_url: label.label_url,
          original_label_url: label.label_url,
          label_with_packing_slip_url: combined,
          shipment_status: 'LABEL_PRINTED',
          zone: label.zone,
          price: label.price,
          currency: label.currency,
          list_rate: label.price,
          list_currency: label.currency,
          delivery_date: label.delivery_date,
          delivery_date_guaranteed: label.delivery_date_guaranteed,
          delivery_days: label.delivery_days,
          formatted_service: label.formatted_service,
          carrier_name: label.carrier_name,
          carrier_id: label.carrier_id,
          service_id: label.service_id,
          carrier_integration_id: integration.id,
          carrier_integration_name: integration.name,
          carrier_integration_type: integration.type ?? 'GENERIC',
          remote_id: label.remote_id,
          from_address: labelled.from_address ?? undefined,
          to_address: labelled.to_address ?? undefined,
        },
      });
      await enqueueEvent(tx, teamId, 'package.labelled', {
        package_id: id, fulfillment_order_id: labelled.fulfillment_order_id, shipping_label_id: created.id,
        tracking_code: label.tracking_code, formatted_service: label.formatted_service,
      });
      // Presented from this transaction's writes: a PENDING package has no fulfillment yet.
      return presentWrittenPackage(tx, { ...labelled, shipping_label: created, fulfillment: null });
    });
  } catch (err) {
    if (adapter?.void) await adapter.void(label).catch(() => undefined); // bought but not attached
    throw err;
  }
}

const ratePackage = (pkg: PackageRecord): RatePackage => ({
  id: pkg.id, weight: pkg.weight, weight_unit: pkg.weight_unit, length: pkg.length, width: pkg.width,
  height: pkg.height, measurement_unit: pkg.measurement_unit, from: asAddress(pkg.from_address),
});

/** Quotes every adapter, picks the cheapest (or the named service), buys it. */
async function shopAndBuy(db: Db, teamId: string, pkg: PackageRecord, input: LabelInput) {
  const to = asAddress(pkg.to_address);
  const rp = ratePackage(pkg);
  const adapters = carrierAdapters(db.prisma, teamId);
  const quotes = await Promise.all(adapters.map(async (a) => {
    try {
      return { adapter: a, ...(await a.rate(rp, to)) };
    } catch (e) {
      // Only an adapter's own refusals are shown; anything else (a driver or database error)
      // stays out of responses and stored rate_error_data.
      const message = e instanceof DomainError ? e.message : 'The carrier service could not be quoted.';
      return { adapter: a, rates: [] as Rate[], errors: [{ carrier_type: a.id, message }] };
    }
  }));
  const all = quotes.flatMap((q) => q.rates.map((rate) => ({ rate, adapter: q.adapter })));
  const eligible = all.filter(({ rate }) =>
    (!input.service_id || rate.service_id === input.service_id) && (!input.carrier_id || rate.carrier_id === input.carrier_id));
  eligible.sort((a, b) => a.rate.amount - b.rate.amount ||
    (a.rate.estimated_days ?? 99) - (b.rate.estimated_days ?? 99) || a.rate.service_name.localeCompare(b.rate.service_name));
  const best = eligible[0];
  if (!best) {
    const message = all.length
      ? `No rate matches the requested service (${[input.carrier_id, input.service_id].filter(Boolean).join(' ')}); see available_rates.`
      : 'No carrier service can ship this package.';
    const rate_error_data = {
      message,
      detailed_errors: quotes.flatMap((q) => q.errors),
      available_rates: all.map(({ rate }) => ({ ...rate, delivery_date: rate.delivery_date?.toISOString() ?? null })),
    };
    // Kept on the package so the failure is visible later (cleared by a successful label).
    await db.prisma.package.updateMany({
      where: { id: pkg.id, status: 'PENDING', shipment_status: null },
      data: { rate_error_data: rate_error_data as unknown as Prisma.InputJsonValue, error_message: message },
    });
    throw conflict(`Package ${pkg.id} could not be rated: ${message}`, { rate_error_data });
  }
  const label = await best.adapter.buy(best.rate, rp, to);
  return { label, adapter: best.adapter, rate: best.rate };
}
