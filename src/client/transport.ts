// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- ambient module declarations, not a module to import
/// <reference path="./undici-modules.d.ts" />
import type { IncomingHttpHeaders } from 'node:http';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

/**
 * HTTP for the API client: undici's keep-alive Agent and its request API, loaded from undici's
 * own modules rather than its package index. The index also loads fetch, WebSocket, caches,
 * mocks and more, ~60 ms at every CLI start; the Agent and request alone load in ~19 ms (issue 9).
 * undici publishes no `exports` map, so these paths are part of what it ships. Loaded on the
 * first request, so a command that sends none (help, completion, config) loads none of it.
 */

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer | NodeJS.ReadableStream;
}

export interface TransportResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** With `stream`, a success's body unread (exports): the caller consumes it as it arrives. */
  stream?: NodeJS.ReadableStream;
}

type RequestFn = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

interface Undici {
  agent: UndiciAgent;
  request: RequestFn;
}

// import() of literal paths, so esbuild bundles them into the standalone binary too (build:sea).
async function loadUndici(): Promise<Undici> {
  const [{ default: Agent }, { default: request }] = await Promise.all([
    import('undici/lib/dispatcher/agent.js'),
    import('undici/lib/api/api-request.js'),
  ]);
  return { agent: new Agent({ keepAliveTimeout: 10_000, connections: 8, connect: { timeout: 15_000 } }), request };
}

export class Transport {
  private undici: Promise<Undici> | undefined;

  async send(url: string, req: TransportRequest, { stream = false } = {}): Promise<TransportResponse> {
    const { agent, request } = await (this.undici ??= loadUndici());
    const target = new URL(url);
    const res = await request.call(agent, {
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body as Dispatcher.DispatchOptions['body'],
    });
    if (stream && res.statusCode < 400)
      return { statusCode: res.statusCode, headers: res.headers as IncomingHttpHeaders, body: Buffer.alloc(0), stream: res.body };
    return { statusCode: res.statusCode, headers: res.headers as IncomingHttpHeaders, body: Buffer.from(await res.body.arrayBuffer()) };
  }

  /**
   * Closes the pooled connections, at the end of a command (its requests are done). With destroy()
   * and an error made here rather than close(): close() destroys the sockets with an error undici
   * makes, whose stack Node's streams then format; in the CLI bundle (dist/cli.cjs) that means
   * finding the line ends of the whole 1.3 MB file, ~2-3 ms of every command (docs/performance.md).
   */
  async close(): Promise<void> {
    if (!this.undici) return;
    const { agent } = await this.undici;
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0; // a stack without frames: nothing to format
    const closed = new Error('the command is done: connections closed');
    Error.stackTraceLimit = limit;
    await agent.destroy(closed);
  }
}
