// A loopback EasyPost (API v2) for `npm run bench -- batch`: the shapes fos's EasyPost connector
// uses (POST /v2/shipments with rates, POST /v2/shipments/{id}/buy, the label file), each answered
// after `latencyMs`, as a real carrier's API answers in a few hundred milliseconds. The test
// suite's double (test/helpers/easypost-double.ts) checks what fos sends; this one only answers.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const id = (prefix) => `${prefix}_${randomBytes(12).toString('hex')}`;

async function labelPdf() {
  const doc = await PDFDocument.create();
  const page = doc.addPage([288, 432]);
  page.drawText('EASYPOST BENCH LABEL', { x: 20, y: 400, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

export async function easypostBenchDouble({ latencyMs }) {
  const pdf = await labelPdf();
  const shipments = new Map();
  const counts = { create: 0, buy: 0, file: 0 };
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    await sleep(latencyMs);
    const send = (status, v) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(v));
    };
    const url = new URL(req.url, 'http://x');
    if (url.pathname.startsWith('/files/')) {
      counts.file++;
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(pdf);
    }
    if (req.method === 'POST' && url.pathname === '/v2/shipments') {
      counts.create++;
      const s = JSON.parse(body).shipment;
      const sid = id('shp');
      const rate = { id: id('rate'), object: 'Rate', shipment_id: sid, carrier: 'USPS', service: 'GroundAdvantage', rate: '5.93' };
      const shipment = {
        id: sid,
        object: 'Shipment',
        mode: 'test',
        reference: s.reference ?? null,
        rates: [{ ...rate, currency: 'USD', delivery_days: 3 }],
      };
      shipments.set(sid, shipment);
      return send(201, shipment);
    }
    const buy = /^\/v2\/shipments\/([^/]+)\/buy$/.exec(url.pathname);
    if (req.method === 'POST' && buy && shipments.has(buy[1])) {
      counts.buy++;
      const s = shipments.get(buy[1]);
      if (s.postage_label)
        return send(422, { error: { code: 'SHIPMENT.POSTAGE.EXISTS', message: 'The shipment has already been purchased.', errors: [] } });
      const tracking = `EZ${randomBytes(8).toString('hex').toUpperCase()}`;
      Object.assign(s, {
        selected_rate: s.rates[0],
        tracking_code: tracking,
        tracker: { id: id('trk'), object: 'Tracker', tracking_code: tracking, public_url: `https://track.easypost.com/${tracking}` },
        postage_label: {
          id: id('pl'),
          object: 'PostageLabel',
          label_file_type: 'image/png',
          label_pdf_url: `${double.url}/files/${s.id}.pdf`,
        },
      });
      return send(200, s);
    }
    return send(404, { error: { code: 'NOT_FOUND', message: `no route ${req.method} ${url.pathname}`, errors: [] } });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const double = {
    url: `http://127.0.0.1:${server.address().port}`,
    counts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return double;
}
