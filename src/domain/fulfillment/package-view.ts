import { statementsOf } from '../../db/statements.js';
import type { Db, Prisma, TxClient } from '../../db/types.js';
import { notFound } from '../errors.js';
import { flatAddress, loadNames, namesOfRow, type Names } from './lookups.js';
import { resolveConfig } from './package-config.js';
import { LINE_COLUMNS, writtenPackageRows } from './store/views.js';
import { findTeamPackage, packageInclude } from './store/packages.js';

// Package 2.7 as the API shows it: every field, null where it does not apply.

type Client = Db['prisma'] | TxClient;

export type PackageRow = Prisma.PackageGetPayload<{ include: typeof packageInclude }>;

const LABEL_ADDRESS = ['name', 'company', 'phone', 'country', 'zip', 'state', 'city', 'street1', 'street2'] as const;

/** Label addresses use street1/street2 for address lines (2.7 shipping_label). */
const LABEL_SOURCE = LABEL_ADDRESS.map((f) => (f === 'street1' ? 'address1' : f === 'street2' ? 'address2' : f));

function labelAddress(prefix: string, value: unknown) {
  return flatAddress(prefix, value, LABEL_ADDRESS, LABEL_SOURCE);
}

function presentLabel(p: PackageRow, names: Names) {
  const l = p.shipping_label;
  if (!l) return null;
  return {
    id: l.id,
    tracking_code: l.tracking_code,
    tracking_url: l.tracking_url,
    label_url: l.label_url,
    original_label_url: l.original_label_url,
    label_with_packing_slip_url: l.label_with_packing_slip_url,
    shipment_status: l.shipment_status,
    refund_status: l.refund_status,
    scan_status: l.scan_status,
    zone: l.zone,
    price: l.price,
    currency: l.currency,
    list_rate: l.list_rate,
    list_currency: l.list_currency,
    retail_price: l.retail_price,
    retail_currency: l.retail_currency,
    delivery_date: l.delivery_date,
    delivery_date_guaranteed: l.delivery_date_guaranteed,
    delivery_days: l.delivery_days,
    formatted_service: l.formatted_service,
    carrier_id: l.carrier_id,
    service_id: l.service_id,
    carrier_account_id: l.carrier_account_id,
    carrier_integration_id: l.carrier_integration_id,
    carrier_integration_name: l.carrier_integration_name,
    carrier_integration_type: l.carrier_integration_type,
    gaylord_id: l.gaylord_id,
    shipping_label_number: l.shipping_label_number,
    voided_at: l.voided_at,
    remote_id: l.remote_id,
    // The label's ids at the carrier platform that produced it (shipment and bought rate).
    carrier_platform_shipment_id: l.remote_id,
    carrier_platform_rate_id: p.provider_rate_id,
    ...labelAddress('from_address_', l.from_address),
    ...labelAddress('to_address_', l.to_address),
    // team_id/team_name: the owning (merchant) team, as on orders (spec 2.7 "team id/name fields").
    team_id: l.merchant_team_id,
    team_name: names.team(l.merchant_team_id),
    merchant_team_id: l.merchant_team_id,
    merchant_team_name: names.team(l.merchant_team_id),
    fulfiller_team_id: l.fulfiller_team_id,
    fulfiller_team_name: names.team(l.fulfiller_team_id),
    carrier_correction: (l.carrier_correction as Record<string, unknown> | null) ?? null,
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}

function presentFulfillment(p: PackageRow, names: Names) {
  const f = p.fulfillment;
  if (!f) return null;
  const l = p.shipping_label;
  const shopId = p.fulfillment_order?.order.shop_id ?? null;
  return {
    id: f.id,
    name: f.name,
    type: f.type,
    status: f.status,
    shipment_status: l?.shipment_status ?? p.shipment_status,
    package_type: p.type,
    package_id: p.id,
    fulfillment_order_id: f.fulfillment_order_id,
    order_id: f.order_id,
    picking_session_id: p.picking_session_id,
    bulk_ship_id: p.bulk_ship_id,
    carton_id: p.carton_id,
    carton_name: p.carton_name,
    warehouse_id: p.warehouse_id,
    warehouse_name: names.warehouse(p.warehouse_id)?.name ?? null,
    shop_id: shopId,
    shop_name: names.shop(shopId)?.name ?? null,
    shipping_label_id: l?.id ?? null,
    formatted_service: l?.formatted_service ?? p.formatted_service,
    tracking_code: l?.tracking_code ?? null,
    shipping_label_label_url: l?.label_url ?? null,
    shipping_label_tracking_url: l?.tracking_url ?? null,
    packed_by_user_id: f.packed_by_user_id,
    packed_by_user_name: f.packed_by_user_name,
    picked_by_user_id: f.picked_by_user_id,
    picked_by_user_name: f.picked_by_user_name,
    has_packshots: false,
    line_item_image_urls: [...new Set(p.line_items.map((i) => i.image_url).filter((u): u is string => !!u))],
    unique_core_item_count: p.unique_line_item_count,
    total_core_item_quantity: p.total_item_quantity,
    remote_id: null,
    synced_at: null,
    // team_id/team_name: the owning (merchant) team, as on orders (spec 2.7 "team id/name fields").
    team_id: f.merchant_team_id,
    team_name: names.team(f.merchant_team_id),
    merchant_team_id: f.merchant_team_id,
    merchant_team_name: names.team(f.merchant_team_id),
    fulfiller_team_id: f.fulfiller_team_id,
    fulfiller_team_name: names.team(f.fulfiller_team_id),
    created_at: f.created_at,
    updated_at: f.updated_at,
  };
}

export function presentPackage(p: PackageRow, names: Names) {
  const l = p.shipping_label;
  return {
    id: p.id,
    idempotency_key: p.idempotency_key,
    name: p.name,
    created_at: p.created_at,
    updated_at: p.updated_at,
    manifested_at: p.manifested_at,
    shipped_at: p.shipped_at,
    status: p.status,
    type: p.type,
    packing_slip_url: p.packing_slip_url,
    length: p.length,
    width: p.width,
    height: p.height,
    measurement_unit: p.measurement_unit,
    weight: p.weight,
    weight_unit: p.weight_unit,
    total_customs_value: p.total_customs_value,
    total_item_quantity: p.total_item_quantity,
    unique_line_item_count: p.unique_line_item_count,
    line_item_hash: p.line_item_hash,
    picking_session_id: p.picking_session_id,
    fulfillment_order_id: p.fulfillment_order_id,
    order_id: p.fulfillment_order?.order_id ?? null, // deliberate extra (docs/fulfillment.md)
    work_order_id: p.work_order_id,
    return_id: p.return_id,
    carton_id: p.carton_id,
    carton_name: p.carton_name,
    shipping_label_id: l?.id ?? null,
    scan_form_id: p.scan_form_id,
    bulk_ship_id: p.bulk_ship_id,
    bulk_ship_template_package_id: p.bulk_ship_template_package_id,
    package_preset_id: p.package_preset_id,
    package_preset_name: p.package_preset_name,
    rate_shop_id: p.rate_shop_id,
    rate_shop_name: p.rate_shop_name,
    warehouse_id: p.warehouse_id,
    warehouse_name: names.warehouse(p.warehouse_id)?.name ?? null,
    merchant_team_id: p.merchant_team_id,
    merchant_team_name: names.team(p.merchant_team_id),
    fulfiller_team_id: p.fulfiller_team_id,
    fulfiller_team_name: names.team(p.fulfiller_team_id),
    carrier_id: p.carrier_id,
    service_id: p.service_id,
    provider_rate_id: p.provider_rate_id,
    carrier_integration_id: p.carrier_integration_id,
    carrier_integration_name: p.carrier_integration_name,
    carrier_integration_type: p.carrier_integration_type,
    formatted_service: p.formatted_service,
    deliver_by: p.deliver_by,
    shipment_status: p.shipment_status,
    error_message: p.error_message,
    tracking_number: l?.tracking_code ?? null,
    shipping_label_tracking_code: l?.tracking_code ?? null,
    shipping_label_tracking_url: l?.tracking_url ?? null,
    shipping_label_formatted_service: l?.formatted_service ?? null,
    shipping_label_url: l?.label_url ?? null,
    ...flatAddress('from_address_', p.from_address),
    ...flatAddress('to_address_', p.to_address),
    config: resolveConfig(null, p.config),
    rate_error_data: (p.rate_error_data as Record<string, unknown> | null) ?? null,
    package_line_items: p.line_items.map((i) => ({
      id: i.id,
      package_id: i.package_id,
      product_id: i.product_id,
      sku: i.sku,
      name: i.name,
      image_url: i.image_url,
      quantity: i.quantity,
      weight: i.weight,
      weight_unit: i.weight_unit,
      lot_code: i.lot_code,
      expiration_date: i.expiration_date,
      uom_label: i.uom_label,
      uom_multiplier_to_eaches: i.uom_multiplier_to_eaches,
      uom_profile_id: i.uom_profile_id,
      work_order_line_item_id: i.work_order_line_item_id,
      core_fulfillment_order_line_item_id: i.core_fulfillment_order_line_item_id,
      customs_value: i.customs_value,
      customs_value_currency: i.customs_value_currency,
      customs_description: i.customs_description,
      hs_code: i.hs_code,
      country_of_origin: i.country_of_origin,
      printed_commodity_identifier: i.printed_commodity_identifier,
      eccn: i.eccn,
      manufacturer: i.manufacturer,
      created_at: i.created_at,
      updated_at: i.updated_at,
    })),
    fulfillment: presentFulfillment(p, names),
    shipping_label: presentLabel(p, names),
  };
}

export type PackageView = ReturnType<typeof presentPackage>;

export async function presentPackages(client: Client, rows: PackageRow[]): Promise<PackageView[]> {
  const names = await loadNames(client, {
    warehouses: rows.map((r) => r.warehouse_id),
    teams: rows.flatMap((r) => [r.merchant_team_id, r.fulfiller_team_id]),
    shops: rows.map((r) => r.fulfillment_order?.order.shop_id),
  });
  return rows.map((r) => presentPackage(r, names));
}

/**
 * A package a write has in hand (its row, label and fulfillment), presented with what else the
 * response shows (its lines, its order and shop, the names) in one statement instead of the eight
 * of loadPackage. Inside the write's transaction, so it shows exactly what was written.
 */
export async function presentWrittenPackage(tx: TxClient, p: Omit<PackageRow, 'line_items' | 'fulfillment_order'>): Promise<PackageView> {
  const rows = await writtenPackageRows(statementsOf(tx), p.id);
  const c = rows[0];
  const line_items = rows.filter((r) => r.l_id !== null).map(lineOf);
  const row: PackageRow = {
    ...p,
    line_items,
    fulfillment_order: c.order_id ? { order_id: c.order_id, order: { shop_id: c.shop_id } } : null,
  };
  const shop = c.shop_id && c.s_name !== null ? { id: c.shop_id, name: c.s_name, shop_type: c.s_shop_type! } : undefined;
  return presentPackage(row, namesOfRow(c, shop));
}

type LineRow = PackageRow['line_items'][number];

/** Each line column beside its name in writtenPackageRows' rows, made once (not a key per row and column). */
const LINE_KEYS = LINE_COLUMNS.map((c) => [c, `l_${c}`] as const);

function lineOf(r: Record<string, unknown>): LineRow {
  const line: Record<string, unknown> = {};
  for (const [c, k] of LINE_KEYS) line[c] = r[k];
  line.quantity = Number(line.quantity);
  return line as unknown as LineRow;
}

export async function loadPackage(client: Client, teamId: string, id: string): Promise<PackageView> {
  const row = await findTeamPackage(client, teamId, id);
  if (!row) throw notFound('Package', id);
  return (await presentPackages(client, [row]))[0];
}
