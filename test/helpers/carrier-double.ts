import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';

// The HTTP plumbing the EasyPost and Shippo test doubles share (test/helpers/easypost-double.ts,
// shippo-double.ts): a loopback server that records every request fos sent (method, path,
// headers, parsed body) and lets a test hold a route open (a slow platform) or fail it.

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
}

export type Handler = (req: Recorded, res: ServerResponse) => void | Promise<void>;

export interface Double {
  url: string;
  requests: Recorded[];
  /** Requests to paths matching re (method optional). */
  calls(re: RegExp, method?: string): Recorded[];
  /** Routes that never answer until released (a slow platform); resolves each when it arrives. */
  hold(re: RegExp): { arrived: Promise<Recorded>; release(): void };
  /** Routes that answer this status and body. */
  fail(re: RegExp, status: number, body: unknown): void;
  close(): Promise<void>;
}

export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** A one-page 4x6 PDF saying `text` (what a platform's label file is, for fos). */
export async function labelPdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([288, 432]);
  page.drawText(text, { x: 20, y: 400, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

export async function startDouble(route: (d: Double) => Handler): Promise<Double> {
  const requests: Recorded[] = [];
  const holds: Array<{ re: RegExp; waiters: Array<(r: Recorded) => void>; open: boolean; parked: ServerResponse[]; next: Handler }> = [];
  const fails: Array<{ re: RegExp; status: number; body: unknown }> = [];
  let handler: Handler = () => undefined;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const u = new URL(req.url ?? '/', 'http://x');
    let body: any = raw;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      /* form or text bodies stay strings */
    }
    const rec: Recorded = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, headers: req.headers, body };
    requests.push(rec);
    const held = holds.find((h) => h.open && h.re.test(u.pathname));
    if (held) {
      held.parked.push(res);
      held.waiters.splice(0).forEach((w) => w(rec));
      return;
    }
    const f = fails.find((x) => x.re.test(u.pathname));
    if (f) return json(res, f.status, f.body);
    try {
      await handler(rec, res);
    } catch (err) {
      json(res, 500, { error: String(err) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const d: Double = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    calls: (re, method) => requests.filter((r) => re.test(r.path) && (!method || r.method === method)),
    hold(re) {
      const h = { re, waiters: [] as Array<(r: Recorded) => void>, open: true, parked: [] as ServerResponse[], next: handler };
      holds.push(h);
      const arrived = new Promise<Recorded>((resolve) => h.waiters.push(resolve));
      return {
        arrived,
        release: () => {
          h.open = false;
          h.parked.forEach((r) => r.destroy());
        },
      };
    },
    fail(re, status, body) {
      fails.push({ re, status, body });
    },
    async close() {
      holds.forEach((h) => h.parked.forEach((r) => r.destroy()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  handler = route(d);
  return d;
}
