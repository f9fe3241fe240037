import http from 'node:http';
import type https from 'node:https';
import { pipeline } from 'node:stream';

/**
 * HTTP for the API client on node:http/https with keep-alive agents. The client used undici
 * until issue 9: importing it costs ~80 ms at every CLI start (and its wasm parser kept the
 * process open while V8 optimised it), where node:http is already part of node. What the client
 * needs is small: one request, its status, headers and whole body, no redirects, no decoding.
 * Transport errors keep their node codes (ECONNREFUSED, ECONNRESET…; see errors.ts); the timeouts
 * are undici's: 15 s to connect (the client's setting), 300 s without a byte once connected.
 */

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer | NodeJS.ReadableStream;
}

export interface TransportResponse {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const AGENT_OPTIONS = { keepAlive: true, maxSockets: 8 };
const CONNECT_TIMEOUT_MS = 15_000;
const IDLE_TIMEOUT_MS = 300_000;

class TimeoutError extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.code = code;
  }
}

export class Transport {
  private httpAgent: http.Agent | undefined;
  /** node:https (and with it tls and crypto) is loaded for the first https URL only. */
  private https: Promise<{ lib: typeof https; agent: https.Agent }> | undefined;

  async send(url: string, req: TransportRequest): Promise<TransportResponse> {
    const target = new URL(url);
    const { lib, agent } = target.protocol === 'https:'
      ? await (this.https ??= import('node:https').then(({ default: lib }) => ({ lib, agent: new lib.Agent(AGENT_OPTIONS) })))
      : { lib: http, agent: (this.httpAgent ??= new http.Agent(AGENT_OPTIONS)) };
    return new Promise((resolve, reject) => {
      const out = lib.request(target, { method: req.method, headers: req.headers, agent });
      let connectTimer: NodeJS.Timeout | undefined;
      out.on('socket', (socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => out.destroy(new TimeoutError('connect timed out', 'ETIMEDOUT')), CONNECT_TIMEOUT_MS);
        socket.once('connect', () => clearTimeout(connectTimer));
      });
      out.setTimeout(IDLE_TIMEOUT_MS, () => out.destroy(new TimeoutError('no data from the server in time', 'ETIMEDOUT')));
      out.on('error', (err) => {
        clearTimeout(connectTimer);
        reject(err);
      });
      out.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('aborted', () => reject(Object.assign(new Error('the connection closed before the response ended'), { code: 'ECONNRESET' })));
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      const body = req.body;
      if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) out.end(body);
      else pipeline(body, out, () => {}); // a failing stream destroys the request, whose 'error' rejects
    });
  }

  /** Closes the pooled connections. */
  async close(): Promise<void> {
    this.httpAgent?.destroy();
    if (this.https) (await this.https).agent.destroy();
  }
}
