import { randomBytes } from 'node:crypto';
import { json, labelPdf, startDouble, type Double, type Recorded } from './carrier-double.js';

// A loopback EasyPost (API v2) speaking its documented shapes (docs.easypost.com: Shipments
// create/buy/retrieve/label/refund, Addresses list and verify), checking what fos sent: HTTP
// Basic auth with the API key as the user name, and the wrapped bodies ({ shipment: … },
// { rate: { id } }, { address: …, verify: … }). A shipment is sold once (a second buy is
// EasyPost's SHIPMENT.POSTAGE.EXISTS 422). Label files are served from /files/.

export interface EasyPostRate {
  carrier: string;
  service: string;
  rate: string;
  delivery_days: number | null;
  list_rate?: string;
  retail_rate?: string;
}

export interface EasyPostDouble extends Double {
  apiKey: string;
  shipments: Map<string, any>;
  /** The rates the next shipments quote. */
  rates: EasyPostRate[];
  /** A buy this answers with EasyPost's SHIPMENT.POSTAGE.FAILURE 422 and the message (null: sold). */
  refuseBuy: ((shipment: any) => string | null) | null;
  /** The shipments sold (bought once each: a second buy of one is refused). */
  sold(): any[];
  /** Address verification results by street1 (delivery verification), default verified. */
  addressResults: Map<string, { success: boolean; errors?: Array<{ code: string; message: string }>; residential?: boolean }>;
}

const now = () => new Date().toISOString();
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function unauthorized(r: Recorded, key: string) {
  const auth = r.headers.authorization ?? '';
  const user = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8').replace(/:$/, '') : null;
  return user !== key;
}

export async function easypostDouble(apiKey = 'EZTK_test_fos_key'): Promise<EasyPostDouble> {
  const pdf = await labelPdf('EASYPOST TEST LABEL');
  const shipments = new Map<string, any>();
  const state = {
    rates: [
      { carrier: 'USPS', service: 'GroundAdvantage', rate: '5.93', delivery_days: 3, list_rate: '7.10', retail_rate: '8.25' },
      { carrier: 'UPS', service: 'NextDayAir', rate: '31.50', delivery_days: 1, list_rate: '35.00', retail_rate: '40.00' },
    ] as EasyPostRate[],
  };
  const addressResults = new Map<string, any>();
  const base = (d: Double) => d.url;
  const double = await startDouble((d) => async (r, res) => {
    if (r.path.startsWith('/files/')) {
      const zpl = r.path.endsWith('.zpl');
      res.writeHead(200, { 'content-type': zpl ? 'application/zpl' : 'application/pdf' });
      return res.end(zpl ? '^XA^FO50,50^FDEASYPOST ZPL^FS^XZ' : pdf);
    }
    if (unauthorized(r, apiKey))
      return json(res, 401, {
        error: {
          code: 'APIKEY.INACTIVE',
          message: 'This api key is no longer active. Please use a different api key or reactivate this key.',
          errors: [],
        },
      });
    const m = r.path.match(/^\/v2\/shipments(?:\/([^/]+))?(?:\/(buy|refund|label))?$/);
    if (r.method === 'POST' && r.path === '/v2/shipments') {
      const s = r.body?.shipment;
      if (!s?.to_address || !s?.from_address || !s?.parcel?.weight)
        return json(res, 422, { error: { code: 'PARAMETER.REQUIRED', message: 'Missing required parameter.', errors: [] } });
      const sid = id('shp');
      const shipment = {
        id: sid,
        object: 'Shipment',
        mode: 'test',
        reference: s.reference ?? null,
        created_at: now(),
        updated_at: now(),
        to_address: { id: id('adr'), object: 'Address', ...s.to_address },
        from_address: { id: id('adr'), object: 'Address', ...s.from_address },
        parcel: { id: id('prcl'), object: 'Parcel', ...s.parcel },
        options: s.options ?? {},
        customs_info: s.customs_info ? { id: id('cstinfo'), object: 'CustomsInfo', ...s.customs_info } : null,
        rates: state.rates.map((x) => ({
          id: id('rate'),
          object: 'Rate',
          mode: 'test',
          shipment_id: sid,
          carrier: x.carrier,
          service: x.service,
          rate: x.rate,
          currency: 'USD',
          list_rate: x.list_rate ?? x.rate,
          list_currency: 'USD',
          retail_rate: x.retail_rate ?? x.rate,
          retail_currency: 'USD',
          delivery_days: x.delivery_days,
          est_delivery_days: x.delivery_days,
          delivery_date: null,
          delivery_date_guaranteed: false,
          carrier_account_id: id('ca'),
          created_at: now(),
          updated_at: now(),
        })),
        messages: [],
        selected_rate: null,
        postage_label: null,
        tracking_code: null,
        tracker: null,
        refund_status: null,
        forms: [],
        usps_zone: 4,
        status: 'unknown',
      };
      shipments.set(sid, shipment);
      return json(res, 201, shipment);
    }
    if (m && m[1]) {
      const s = shipments.get(m[1]);
      if (!s) return json(res, 404, { error: { code: 'NOT_FOUND', message: 'The requested resource could not be found.', errors: [] } });
      if (r.method === 'GET' && !m[2]) return json(res, 200, s);
      if (r.method === 'POST' && m[2] === 'buy') {
        if (s.postage_label)
          return json(res, 422, {
            error: { code: 'SHIPMENT.POSTAGE.EXISTS', message: 'The shipment has already been purchased.', errors: [] },
          });
        const refused = (d as EasyPostDouble).refuseBuy?.(s);
        if (refused) return json(res, 422, { error: { code: 'SHIPMENT.POSTAGE.FAILURE', message: refused, errors: [] } });
        const rate = s.rates.find((x: any) => x.id === r.body?.rate?.id);
        if (!rate)
          return json(res, 422, { error: { code: 'SHIPMENT.RATE.INVALID', message: 'Rate not found for this shipment.', errors: [] } });
        const zpl = s.options?.label_format === 'ZPL';
        const tracking = `EZ${randomBytes(8).toString('hex').toUpperCase()}`;
        Object.assign(s, {
          // Buy with insurance: { rate, insurance: "<amount>" } (docs.easypost.com, Buy a Shipment).
          ...(r.body?.insurance ? { insurance: String(r.body.insurance) } : {}),
          selected_rate: rate,
          tracking_code: tracking,
          status: 'unknown',
          updated_at: now(),
          tracker: {
            id: id('trk'),
            object: 'Tracker',
            tracking_code: tracking,
            status: 'unknown',
            public_url: `https://track.easypost.com/${tracking}`,
          },
          postage_label: {
            id: id('pl'),
            object: 'PostageLabel',
            label_size: '4x6',
            label_file_type: zpl ? 'application/zpl' : 'image/png',
            label_url: `${base(d)}/files/${s.id}.png`,
            label_pdf_url: zpl ? null : `${base(d)}/files/${s.id}.pdf`,
            label_zpl_url: zpl ? `${base(d)}/files/${s.id}.zpl` : null,
          },
          forms: s.customs_info
            ? [{ id: id('form'), object: 'Form', form_type: 'commercial_invoice', form_url: `${base(d)}/files/${s.id}-invoice.pdf` }]
            : [],
        });
        return json(res, 200, s);
      }
      if (r.method === 'GET' && m[2] === 'label') {
        if (!s.postage_label)
          return json(res, 422, { error: { code: 'SHIPMENT.POSTAGE.MISSING', message: 'No postage label.', errors: [] } });
        if (r.query.get('file_format') === 'ZPL') s.postage_label.label_zpl_url = `${base(d)}/files/${s.id}.zpl`;
        if (r.query.get('file_format') === 'PDF') s.postage_label.label_pdf_url = `${base(d)}/files/${s.id}.pdf`;
        return json(res, 200, s);
      }
      if (r.method === 'POST' && m[2] === 'refund') {
        if (!s.postage_label)
          return json(res, 422, { error: { code: 'SHIPMENT.REFUND.UNAVAILABLE', message: 'Not purchased.', errors: [] } });
        s.refund_status = 'submitted';
        return json(res, 200, s);
      }
    }
    if (r.method === 'GET' && r.path === '/v2/addresses') return json(res, 200, { addresses: [], has_more: false });
    if (r.method === 'POST' && r.path === '/v2/addresses') {
      const a = r.body?.address ?? {};
      const result = addressResults.get(a.street1) ?? { success: true, residential: true };
      const delivery = {
        success: result.success,
        errors: result.errors ?? [],
        details: result.success ? { latitude: 37.78, longitude: -122.39, time_zone: 'America/Los_Angeles' } : null,
      };
      return json(res, 200, {
        id: id('adr'),
        object: 'Address',
        mode: 'test',
        created_at: now(),
        updated_at: now(),
        name: a.name ?? null,
        company: a.company ?? null,
        street1: (a.street1 ?? '').toUpperCase(),
        street2: a.street2 ? String(a.street2).toUpperCase() : null,
        city: (a.city ?? '').toUpperCase(),
        state: a.state ?? null,
        zip: result.success ? `${String(a.zip ?? '').slice(0, 5)}-1234` : a.zip,
        country: a.country ?? 'US',
        phone: a.phone ?? null,
        email: a.email ?? null,
        residential: result.residential ?? false,
        verifications: { delivery, zip4: { success: result.success, errors: [], details: null } },
      });
    }
    return json(res, 404, { error: { code: 'NOT_FOUND', message: `no route ${r.method} ${r.path}`, errors: [] } });
  });
  Object.defineProperty(double, 'rates', {
    get: () => state.rates,
    set: (v: EasyPostRate[]) => {
      state.rates = v;
    },
  });
  const sold = () => [...shipments.values()].filter((s) => s.postage_label);
  return Object.assign(double, { apiKey, shipments, addressResults, refuseBuy: null, sold }) as EasyPostDouble;
}
