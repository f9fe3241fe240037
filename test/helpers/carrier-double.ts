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
  /**
   * Routes the platform carries out (a purchase is made) but answers only after ms (45 s: later
   * than any deadline of fos), or never (ms = Infinity); 'lose' answers nothing at all and drops
   * the connection once done (an answer lost after success). Returns the undo.
   */
  late(re: RegExp, ms: number | 'lose', method?: string): () => void;
  /**
   * As late, but the answer is written when the test says: `done` resolves once the platform did
   * the work (the answer is still held), `answer()` sends it. For orderings that must not depend on time.
   */
  deferred(re: RegExp, method?: string): { done: Promise<Recorded>; answer(): void; undo(): void };
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
  const lates: Array<{ re: RegExp; ms: number | 'lose' | 'deferred'; method?: string; park?: (rec: Recorded, send: () => void) => void }> =
    [];
  const timers = new Set<NodeJS.Timeout>();
  const parkedLate = new Set<ServerResponse>();
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
    const late = lates.find((x) => x.re.test(u.pathname) && (!x.method || x.method === rec.method));
    if (late) {
      // The platform does the work now; its answer is held (a capture of what it would write).
      const out = { status: 200, headers: {} as Record<string, string>, body: '' as string | Buffer };
      const capture = {
        writeHead: (st: number, h?: Record<string, string>) => Object.assign(out, { status: st, headers: h ?? {} }),
        end: (b?: string | Buffer) => (out.body = b ?? ''),
      } as unknown as ServerResponse;
      await handler(rec, capture);
      if (late.ms === 'lose') return res.destroy();
      parkedLate.add(res);
      if (late.ms === 'deferred')
        return late.park!(rec, () => {
          parkedLate.delete(res);
          res.writeHead(out.status, out.headers);
          res.end(out.body);
        });
      if (late.ms === Infinity) return;
      const ms = late.ms;
      const tm = setTimeout(() => {
        timers.delete(tm);
        parkedLate.delete(res);
        res.writeHead(out.status, out.headers);
        res.end(out.body);
      }, ms);
      timers.add(tm);
      return;
    }
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
    late(re, ms, method) {
      const l = { re, ms, method };
      lates.push(l);
      return () => lates.splice(lates.indexOf(l), 1);
    },
    deferred(re, method) {
      let send: (() => void) | null = null;
      let arrived!: (r: Recorded) => void;
      const done = new Promise<Recorded>((resolve) => (arrived = resolve));
      const l = { re, ms: 'deferred' as const, method, park: (rec: Recorded, s: () => void) => ((send = s), arrived(rec)) };
      lates.push(l);
      const undo = () => void (lates.includes(l) && lates.splice(lates.indexOf(l), 1));
      return { done, answer: () => (undo(), send?.()), undo };
    },
    fail(re, status, body) {
      fails.push({ re, status, body });
    },
    async close() {
      holds.forEach((h) => h.parked.forEach((r) => r.destroy()));
      timers.forEach((tm) => clearTimeout(tm));
      parkedLate.forEach((r) => r.destroy());
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  handler = route(d);
  return d;
}
