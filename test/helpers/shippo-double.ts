import { randomBytes } from 'node:crypto';
import { json, labelPdf, startDouble, type Double } from './carrier-double.js';

// A loopback Shippo API speaking its documented shapes (docs.goshippo.com: Shipments create,
// Transactions create/list, Refunds create/list/retrieve, Addresses list), checking what fos sent: the
// "Authorization: ShippoToken <key>" header and snake_case bodies. Label files are served from
// /files/.

export interface ShippoDouble extends Double {
  apiKey: string;
  shipments: Map<string, any>;
  transactions: any[];
  /** Refunds requested (newest first), as GET /refunds lists them. */
  refunds: any[];
}

const now = () => new Date().toISOString();
const oid = () => randomBytes(16).toString('hex');

const address = (a: any) => ({
  object_id: oid(),
  is_complete: true,
  is_residential: null,
  object_created: now(),
  object_updated: now(),
  object_owner: 'fos@example.com',
  validation_results: {},
  test: true,
  name: a?.name ?? '',
  company: a?.company ?? '',
  street1: a?.street1 ?? '',
  street2: a?.street2 ?? '',
  city: a?.city ?? '',
  state: a?.state ?? '',
  zip: a?.zip ?? '',
  country: a?.country ?? 'US',
  phone: a?.phone ?? '',
  email: a?.email ?? '',
});

export async function shippoDouble(apiKey = 'shippo_test_fos_key'): Promise<ShippoDouble> {
  const pdf = await labelPdf('SHIPPO TEST LABEL');
  const shipments = new Map<string, any>();
  const transactions: any[] = [];
  const refunds: any[] = [];
  const double = await startDouble((d) => async (r, res) => {
    if (r.path.startsWith('/files/')) {
      const zpl = r.path.endsWith('.zpl');
      res.writeHead(200, { 'content-type': zpl ? 'application/zpl' : 'application/pdf' });
      return res.end(zpl ? '^XA^FO50,50^FDSHIPPO ZPL^FS^XZ' : pdf);
    }
    if (r.headers.authorization !== `ShippoToken ${apiKey}`) return json(res, 401, { detail: 'Invalid token.' });
    if (r.method === 'POST' && r.path === '/shipments') {
      const b = r.body ?? {};
      if (!b.address_to || !b.address_from || !Array.isArray(b.parcels) || !b.parcels.length)
        return json(res, 400, { detail: 'address_to, address_from and parcels are required' });
      const id = oid();
      const rate = (provider: string, name: string, token: string, amount: string, days: number) => ({
        object_id: oid(),
        object_created: now(),
        object_owner: 'fos@example.com',
        shipment: id,
        attributes: [],
        amount,
        currency: 'USD',
        amount_local: amount,
        currency_local: 'USD',
        provider,
        provider_image_75: '',
        provider_image_200: '',
        servicelevel: { name, token, terms: '', extended_token: token, parent_servicelevel: null },
        estimated_days: days,
        arrives_by: null,
        duration_terms: `${days} days`,
        messages: [],
        carrier_account: oid(),
        test: true,
        zone: '5',
      });
      const shipment = {
        object_id: id,
        object_created: now(),
        object_updated: now(),
        object_owner: 'fos@example.com',
        status: 'SUCCESS',
        address_from: address(b.address_from),
        address_to: address(b.address_to),
        address_return: address(b.address_from),
        parcels: b.parcels.map((p: any) => ({
          object_id: oid(),
          object_state: 'VALID',
          object_created: now(),
          object_updated: now(),
          object_owner: 'fos@example.com',
          test: true,
          extra: {},
          metadata: '',
          ...p,
        })),
        shipment_date: now(),
        carrier_accounts: [],
        messages: [],
        metadata: b.metadata ?? '',
        test: true,
        // Shipment extras as sent (signature_confirmation, insurance { amount, currency, content }).
        extra: b.extra ?? {},
        // Shippo answers the declaration with its items as object ids (what fos sent: calls()).
        customs_declaration: b.customs_declaration
          ? { object_id: oid(), ...b.customs_declaration, items: b.customs_declaration.items.map(() => oid()) }
          : undefined,
        rates: [
          rate('USPS', 'Priority Mail', 'usps_priority', '7.25', 2),
          rate('DHL Express', 'Express Worldwide', 'dhl_express_worldwide', '42.00', 1),
        ],
      };
      shipments.set(id, shipment);
      return json(res, 201, shipment);
    }
    if (r.method === 'POST' && r.path === '/transactions') {
      const b = r.body ?? {};
      const shipment = [...shipments.values()].find((s) => s.rates.some((x: any) => x.object_id === b.rate));
      if (!shipment) return json(res, 400, { rate: ['Rate not found.'] });
      const rate = shipment.rates.find((x: any) => x.object_id === b.rate);
      const zpl = b.label_file_type === 'ZPLII';
      const tracking = `92${randomBytes(10).toString('hex').replace(/[a-f]/g, '7').slice(0, 20)}`;
      const t = {
        object_id: oid(),
        object_state: 'VALID',
        status: 'SUCCESS',
        object_created: now(),
        object_updated: now(),
        object_owner: 'fos@example.com',
        test: true,
        rate: b.rate,
        metadata: b.metadata ?? '',
        label_file_type: b.label_file_type,
        tracking_number: tracking,
        tracking_status: 'UNKNOWN',
        tracking_url_provider: `https://tools.usps.com/go/TrackConfirmAction?tLabels=${tracking}`,
        eta: null,
        label_url: `${d.url}/files/${tracking}.${zpl ? 'zpl' : 'pdf'}`,
        commercial_invoice_url: shipment.customs_declaration ? `${d.url}/files/${tracking}-invoice.pdf` : '',
        messages: [],
        qr_code_url: '',
        parcel: shipment.parcels[0].object_id,
        amount: rate.amount,
      };
      transactions.push(t);
      return json(res, 201, t);
    }
    if (r.method === 'GET' && r.path === '/transactions') {
      const rate = r.query.get('rate');
      return json(res, 200, { next: null, previous: null, results: transactions.filter((t) => !rate || t.rate === rate) });
    }
    if (r.method === 'POST' && r.path === '/refunds') {
      const t = transactions.find((x) => x.object_id === r.body?.transaction);
      if (!t) return json(res, 400, { transaction: ['Transaction not found.'] });
      const refund = {
        object_id: oid(),
        object_created: now(),
        object_updated: now(),
        object_owner: 'fos@example.com',
        status: 'QUEUED',
        transaction: t.object_id,
        test: true,
      };
      refunds.unshift(refund);
      return json(res, 201, refund);
    }
    // List all refunds (newest first; the SDK asks for /refunds/) and Retrieve a refund.
    if (r.method === 'GET' && /^\/refunds\/?$/.test(r.path)) return json(res, 200, { next: null, previous: null, results: refunds });
    if (r.method === 'GET' && r.path.startsWith('/refunds/')) {
      const refund = refunds.find((x) => x.object_id === r.path.slice('/refunds/'.length));
      return refund ? json(res, 200, refund) : json(res, 404, { detail: 'Not found.' });
    }
    if (r.method === 'GET' && r.path === '/addresses') return json(res, 200, { next: null, previous: null, results: [] });
    return json(res, 404, { detail: `no route ${r.method} ${r.path}` });
  });
  return Object.assign(double, { apiKey, shipments, transactions, refunds }) as ShippoDouble;
}
