// Packages, labels, fulfillments, charges, scan forms and files for scripts/seed-scale.mjs: the rows
// the fulfill workflow, the charge endpoints and the files endpoint would write, made in memory
// with the seeder's PRNG and inserted by its bulk writer. Shapes follow what the API writes (a
// package made through POST /v1/ops/packages, labelled by upload and fulfilled, its SHIPPING
// charge from the delegation's rate card; storage and receiving charges; files registered by URL).
import { lineTotals } from '../dist/domain/fulfillment/package-lines.js';
import { resolveConfig } from '../dist/domain/fulfillment/package-config.js';
import { packingSlipUrl } from '../dist/domain/fulfillment/document-urls.js';
import { trackingUrl } from '../dist/connectors/carriers/tracking.js';
import { jsonPricing } from '../dist/domain/charges/charges.js';
import { parseRateCard, priceJsonCardStorage, priceReceiving, priceShipping } from '../dist/domain/charges/rate-card.js';

export const PACKAGE_COLS = [
  'id',
  'name',
  'status',
  'type',
  'fulfiller_team_id',
  'merchant_team_id',
  'fulfillment_order_id',
  'warehouse_id',
  'label_format',
  'carton_id',
  'scan_form_id',
  'packing_slip_url',
  'length',
  'width',
  'height',
  'measurement_unit',
  'weight',
  'weight_unit',
  'total_customs_value',
  'total_item_quantity',
  'unique_line_item_count',
  'line_item_hash',
  'carrier_id',
  'service_id',
  'carrier_integration_type',
  'formatted_service',
  'shipment_status',
  'from_address',
  'to_address',
  'config',
  'manifested_at',
  'shipped_at',
  'created_at',
  'updated_at',
];
export const PACKAGE_LINE_COLS = [
  'id',
  'package_id',
  'product_id',
  'core_fulfillment_order_line_item_id',
  'sku',
  'name',
  'quantity',
  'created_at',
  'updated_at',
];
export const LABEL_COLS = [
  'id',
  'package_id',
  'fulfiller_team_id',
  'merchant_team_id',
  'tracking_code',
  'tracking_url',
  'label_url',
  'original_label_url',
  'shipment_status',
  'price',
  'currency',
  'list_rate',
  'list_currency',
  'formatted_service',
  'carrier_name',
  'carrier_id',
  'service_id',
  'carrier_integration_type',
  'from_address',
  'to_address',
  'created_at',
  'updated_at',
];
export const FULFILLMENT_COLS = [
  'id',
  'package_id',
  'fulfillment_order_id',
  'order_id',
  'fulfiller_team_id',
  'merchant_team_id',
  'name',
  'created_at',
  'updated_at',
];
export const CHARGE_COLS = [
  'id',
  'name',
  'description',
  'category',
  'currency',
  'quantity',
  'calculated_amount',
  'original_amount',
  'merchant_team_id',
  'fulfiller_team_id',
  'fulfillment_delegation_id',
  'order_id',
  'fulfillment_id',
  'fulfillment_order_id',
  'shipping_label_id',
  'purchase_order_id',
  'carrier_id',
  'carrier_integration_type',
  'service_id',
  'carton_id',
  'warehouse_id',
  'warehouse_name',
  'location_type_id',
  'location_type_name',
  'rate_period',
  'pricing_config',
  'pricing_trace',
  'created_at',
  'updated_at',
];
export const SCAN_FORM_COLS = [
  'id',
  'team_id',
  'warehouse_id',
  'carrier_id',
  'carrier_name',
  'form_date',
  'package_count',
  'manifest_url',
  'created_at',
  'updated_at',
];
export const FILE_COLS = [
  'id',
  'team_id',
  'name',
  'description',
  'url',
  'mimetype',
  'size',
  'file_category',
  'processing_status',
  'tags',
  'search_text',
  'created_at',
  'updated_at',
];

// [carrier name, carrier_id, [service_id, formatted service, base price]]
const CARRIERS = [
  [
    'UPS',
    'ups',
    [
      ['ground', 'UPS Ground', 9.5],
      ['2nd_day_air', 'UPS 2nd Day Air', 18.2],
    ],
  ],
  [
    'USPS',
    'usps',
    [
      ['ground_advantage', 'USPS Ground Advantage', 5.4],
      ['priority', 'USPS Priority Mail', 8.9],
    ],
  ],
  [
    'FedEx',
    'fedex',
    [
      ['home_delivery', 'FedEx Home Delivery', 10.1],
      ['express_saver', 'FedEx Express Saver', 16.7],
    ],
  ],
];
const CARTONS = [
  ['carton-small', 200, 150, 100],
  ['carton-medium', 300, 250, 150],
  ['carton-large', 450, 350, 300],
  [null, null, null, null],
];
// Rate card of every seeded delegation (storage, receiving, shipping), as charges.test.ts uses.
export const RATE_CARD = {
  id: 'rc_scale',
  name: 'Scale standard',
  version_id: 'v_1',
  semantic_version: '1.0.0',
  currency: 'USD',
  storage: { rate_per_unit: { DAILY: 0.05, MONTHLY: 1.2 } },
  receiving: { rate_per_unit: 0.25 },
  shipping: { fee_per_package: 1.5, markup_percent: 10 },
};
const CARD = parseRateCard(RATE_CARD);
/** pricing_config and pricing_trace as JSON text, made by the domain's own pricing record. */
const pricingJson = (inputs, pricing) => {
  const { pricing_config, pricing_trace } = jsonPricing(CARD, inputs, pricing);
  return [JSON.stringify(pricing_config), JSON.stringify(pricing_trace)];
};
const MANUAL = (category) => ({ category, origination: 'MANUAL', shipping_label: null, order: null });
// Files: [mimetype, extension, category, share, [name stems]]; image/gif is the rare type.
const FILE_KINDS = [
  ['application/pdf', 'pdf', 'INVOICE', 0.3, ['Invoice', 'Carrier invoice', 'Statement']],
  ['application/pdf', 'pdf', 'DOCUMENT', 0.15, ['Bill of lading', 'Customs declaration', 'SOP', 'Receiving report']],
  ['image/jpeg', 'jpg', 'IMAGE', 0.2, ['Pack shot', 'Damage photo', 'Pallet photo']],
  ['image/png', 'png', 'IMAGE', 0.1, ['Product photo', 'Shelf label']],
  ['text/csv', 'csv', 'DOCUMENT', 0.12, ['Inventory export', 'Cycle count', 'Order export']],
  ['application/zip', 'zip', 'OTHER', 0.05, ['Label batch', 'Archive']],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx', 'DOCUMENT', 0.075, ['Rate sheet', 'Forecast']],
  ['image/gif', 'gif', 'IMAGE', 0.005, ['Animated banner']],
];
const FILE_TAGS = [[], [], ['invoice'], ['receiving'], ['damage', 'claims'], ['customs'], ['photos'], ['finance', 'monthly']];
// A handful of files with a name no other file shares (benchmarks search for it).
export const RARE_FILE = 'Zygomorphic calibration';

/** Makers bound to the seeder's PRNG and ids; each pushes rows into the arrays it is given. */
export function recordMakers({ rand, pick, int, uuid7, iso, searchKey, fulfiller, merchants, delegations, warehouses, locationTypes }) {
  const config = JSON.stringify(resolveConfig(null));
  const delegationOf = new Map(merchants.map((m, i) => [m.id, delegations[i].id]));
  const whAddress = new Map(
    warehouses.map((w) => [
      w.id,
      JSON.stringify({
        name: w.name,
        company: fulfiller.name,
        address1: w.address1 ?? null,
        address2: null,
        city: w.city,
        state: w.state,
        zip: w.zip,
        country: w.country,
        phone: null,
        email: null,
      }),
    ]),
  );
  const scanForms = new Map(); // `${day}|${warehouse}|${carrier}` -> { id, count, row }
  let trackingSeq = 0;

  /**
   * Packages of one fulfillment order: `want` of them at most (the caller's quota), as the
   * fulfill workflow leaves them: a FULFILLED order's lines spread over 1..lines packages, each
   * labelled and fulfilled; an IN_PROGRESS order's first line shipped and the rest in a PENDING
   * package (labelled or not). Returns { made, fulfilled, shippingCharges } counts.
   */
  function packagesFor(fo, want, chargeWant, out) {
    const { foStatus, items, at, upd } = fo;
    if (want < 1 || (foStatus !== 'FULFILLED' && foStatus !== 'IN_PROGRESS')) return { made: 0, fulfilled: 0, charged: 0 };
    const groups = [];
    if (foStatus === 'FULFILLED') {
      const k = Math.min(want, items.length, want > 2 ? 3 : rand() < 0.85 ? 1 : int(2, 3)); // split more while behind the quota
      for (let g = 0; g < k; g++) groups.push({ lines: items.filter((_, j) => j % k === g), shipped: true });
    } else {
      groups.push({ lines: [items[0]], shipped: true });
      if (items.length > 1 && want >= 2) groups.push({ lines: items.slice(1), shipped: false });
    }
    let fulfilled = 0,
      charged = 0;
    groups.forEach((g, n) => {
      const created = at + 3600_000 + n * 60_000 + int(0, 3_000_000);
      const shippedAt = Math.min(Date.now(), Math.max(created + 600_000, upd));
      const pkgAt = iso(created);
      const id = uuid7(created);
      const lines = g.lines.map((li) => ({ core_fulfillment_order_line_item_id: li.foliId, quantity: li.qty, customs_value: null, li }));
      const totals = lineTotals(lines);
      const [cartonId, l, w, h] = pick(CARTONS);
      const labelled = g.shipped || rand() < 0.5;
      const [carrierName, carrierId, services] = pick(CARRIERS);
      const [serviceId, service, base] = pick(services);
      const price = Math.round((base + rand() * 6) * 100) / 100;
      const stamp = iso(g.shipped ? shippedAt : created + 300_000);
      let scanFormId = null;
      if (g.shipped && carrierId === 'usps') scanFormId = scanForm(shippedAt, fo.warehouseId, carrierId);
      const toAddress = JSON.stringify({
        name: fo.customerName,
        company: null,
        address1: fo.ship.address1,
        address2: null,
        city: fo.ship.city,
        state: fo.ship.state,
        zip: fo.ship.zip,
        country: fo.ship.country,
        phone: null,
        email: fo.customerEmail,
      });
      out.packages.push([
        id,
        `Package ${n + 1}`,
        g.shipped ? 'FULFILLED' : 'PENDING',
        'FULFILLMENT_ORDER',
        fulfiller.id,
        fo.merchantId,
        fo.id,
        fo.warehouseId,
        'PDF',
        cartonId,
        scanFormId,
        packingSlipUrl('', id),
        l,
        w,
        h,
        'MM',
        int(150, 4000),
        'G',
        totals.total_customs_value,
        totals.total_item_quantity,
        totals.unique_line_item_count,
        totals.line_item_hash,
        labelled ? carrierId : null,
        labelled ? serviceId : null,
        labelled ? 'GENERIC' : null,
        labelled ? service : null,
        labelled ? 'LABEL_PRINTED' : null,
        whAddress.get(fo.warehouseId),
        toAddress,
        config,
        scanFormId ? stamp : null,
        g.shipped ? stamp : null,
        pkgAt,
        g.shipped ? stamp : pkgAt,
      ]);
      for (const { li } of lines)
        out.packageLines.push([uuid7(created), id, li.p.id, li.foliId, li.p.sku, li.p.name, li.qty, pkgAt, pkgAt]);
      if (!labelled) return;
      const labelId = uuid7(created + 300_000);
      const code = `${carrierId === 'ups' ? '1Z' : carrierId === 'usps' ? '9400' : '7'}${String(++trackingSeq).padStart(12, '0')}`;
      const labelAt = iso(created + 300_000);
      out.labels.push([
        labelId,
        id,
        fulfiller.id,
        fo.merchantId,
        code,
        trackingUrl(carrierName, code),
        `https://labels.example.com/${code}.pdf`,
        `https://labels.example.com/${code}.pdf`,
        'LABEL_PRINTED',
        price,
        'USD',
        price,
        'USD',
        service,
        carrierName,
        carrierId,
        serviceId,
        'GENERIC',
        whAddress.get(fo.warehouseId),
        toAddress,
        labelAt,
        labelAt,
      ]);
      if (!g.shipped) return;
      fulfilled++;
      const fulfillmentId = uuid7(shippedAt);
      out.fulfillments.push([
        fulfillmentId,
        id,
        fo.id,
        fo.orderId,
        fulfiller.id,
        fo.merchantId,
        `${fo.orderNumber}-F${fulfilled}`,
        stamp,
        stamp,
      ]);
      if (charged >= chargeWant) return;
      charged++;
      const pricing = priceShipping(CARD, { label_price: price, service_id: serviceId });
      const wh = warehouses.find((x) => x.id === fo.warehouseId);
      const labelConfig = {
        id: labelId,
        from_address_country: wh.country,
        from_address_zip: wh.zip,
        from_address_state: wh.state,
        from_address_city: wh.city,
        to_address_country: fo.ship.country,
        to_address_zip: fo.ship.zip,
        to_address_state: fo.ship.state,
        to_address_city: fo.ship.city,
        zone: null,
        price,
        formatted_service: service,
        carrier_integration_name: null,
        carrier_integration_type: 'GENERIC',
        tracking_code: code,
        service_id: serviceId,
        carrier_integration_id: null,
        carrier_id: carrierId,
      };
      const orderConfig = {
        id: fo.orderId,
        address_residential: 'UNKNOWN',
        priority: fo.priority,
        is_fragile: false,
        tags: [],
        unique_core_line_item_count: items.length,
        shop_type: 'MANUAL',
        order_number: fo.orderNumber,
      };
      out.charges.push([
        uuid7(shippedAt),
        `Shipping ${fo.orderNumber} (${code})`,
        service,
        'SHIPPING',
        'USD',
        1,
        pricing.calculated_amount,
        pricing.original_amount,
        fo.merchantId,
        fulfiller.id,
        delegationOf.get(fo.merchantId),
        fo.orderId,
        fulfillmentId,
        fo.id,
        labelId,
        null,
        carrierId,
        'GENERIC',
        serviceId,
        cartonId,
        fo.warehouseId,
        fo.warehouseName,
        null,
        null,
        null,
        ...pricingJson({ category: 'SHIPPING', origination: 'ORDER', shipping_label: labelConfig, order: orderConfig }, pricing),
        stamp,
        stamp,
      ]);
    });
    return { made: groups.length, fulfilled, charged };
  }

  function scanForm(ms, warehouseId, carrierId) {
    const day = new Date(ms).toISOString().slice(0, 10);
    const key = `${day}|${warehouseId}|${carrierId}`;
    let f = scanForms.get(key);
    if (!f) {
      const closeMs = Math.min(Date.now(), Date.parse(`${day}T23:00:00Z`));
      f = { id: uuid7(closeMs), count: 0, at: iso(closeMs) };
      scanForms.set(key, f);
    }
    f.count++;
    return f.id;
  }

  /** The scan forms the packages were put on, one per day, warehouse and carrier. */
  function scanFormRows() {
    return [...scanForms.entries()].map(([key, f]) => {
      const [day, warehouseId, carrierId] = key.split('|');
      return [
        f.id,
        fulfiller.id,
        warehouseId,
        carrierId,
        CARRIERS.find((c) => c[1] === carrierId)[0],
        day,
        f.count,
        `/v1/ops/scan-forms/${f.id}/manifest`,
        f.at,
        f.at,
      ];
    });
  }

  /** A storage (3 in 4) or receiving charge at `ms`, priced from RATE_CARD as the charge endpoints do. */
  function billingCharge(ms) {
    const m = int(0, merchants.length - 1);
    const merchant = merchants[m];
    const at = iso(ms);
    if (rand() < 0.75) {
      const wh = pick(warehouses);
      const lt = pick(locationTypes);
      const period = rand() < 0.7 ? 'MONTHLY' : 'DAILY';
      const qty = int(1, 400);
      const pricing = priceJsonCardStorage(CARD, { location_type_id: lt.id, rate_period: period, quantity: qty });
      const month = new Date(ms).toISOString().slice(0, 7);
      return [
        uuid7(ms),
        `${lt.name} storage ${month}`,
        null,
        'STORAGE',
        'USD',
        qty,
        pricing.calculated_amount,
        pricing.original_amount,
        merchant.id,
        fulfiller.id,
        delegations[m].id,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        wh.id,
        wh.name,
        lt.id,
        lt.name,
        period,
        ...pricingJson(MANUAL('STORAGE'), pricing),
        at,
        at,
      ];
    }
    const qty = int(10, 2000);
    const pricing = priceReceiving(CARD, { quantity: qty });
    const po = `PO-${int(10000, 99999)}`;
    return [
      uuid7(ms),
      `Receiving ${po}`,
      null,
      'RECEIVING',
      'USD',
      qty,
      pricing.calculated_amount,
      pricing.original_amount,
      merchant.id,
      fulfiller.id,
      delegations[m].id,
      null,
      null,
      null,
      null,
      po,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      ...pricingJson(MANUAL('RECEIVING'), pricing),
      at,
      at,
    ];
  }

  /** A file registered by URL (processing_status stays PENDING, as POST /v1/ops/files with JSON leaves it). */
  function file(ms, i, rare) {
    let r = rand();
    let kind = FILE_KINDS[0];
    for (const k of FILE_KINDS) {
      if ((r -= k[3]) < 0) {
        kind = k;
        break;
      }
      kind = k;
    }
    const [mimetype, ext, category] = kind;
    const day = new Date(ms).toISOString().slice(0, 10);
    const name = rare ? `${RARE_FILE} ${i}.${ext}` : `${pick(kind[4])} ${day} ${int(1000, 99999)}.${ext}`;
    // Sizes spread over 200 B .. 50 MB (log-uniform), so min_size filters cut at every scale.
    const size = Math.round(Math.exp(Math.log(200) + rand() * (Math.log(50e6) - Math.log(200))));
    const upd = Math.min(Date.now(), ms + (rand() < 0.2 ? int(60_000, 30 * 86400_000) : 0));
    return [
      uuid7(ms),
      fulfiller.id,
      name,
      rand() < 0.3 ? `${category.toLowerCase()} kept for ${merchants[int(0, merchants.length - 1)].name}` : null,
      `https://files.example.com/${day}/${i}.${ext}`,
      mimetype,
      size,
      category,
      'PENDING',
      JSON.stringify(pick(FILE_TAGS)),
      searchKey(name),
      iso(ms),
      iso(upd),
    ];
  }

  return { packagesFor, scanFormRows, billingCharge, file };
}
