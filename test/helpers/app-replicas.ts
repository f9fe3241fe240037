// Two in-process API servers on ONE database, each with its own connection pool (createDb), as
// two replicas are: requests race on separate connections, and this process sees every retry
// the transaction helper made (txRetryCounts, onTxRetry), which child processes would keep to
// themselves. Same shape as twoProcessesOn (replicas.ts), so the race scenarios take either.

import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createDb } from '../../src/db/client.js';
import type { Db } from '../../src/db/types.js';
import { buildApp } from '../../src/server/app.js';
import { replicaWorld, type ApiResult, type Replicas, type ReplicaWorld } from './replicas.js';

export function twoAppsOn(
  fresh: () => Promise<{ url: string; cleanup?: () => Promise<void>; drop?: () => Promise<void> }>,
): () => { w: ReplicaWorld; r: Replicas } {
  let w: ReplicaWorld;
  let r: Replicas;
  const apps: Array<{ app: FastifyInstance; db: Db }> = [];
  let done: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const fr = await fresh();
    done = fr.cleanup ?? fr.drop;
    w = await replicaWorld(fr.url);
    for (let i = 0; i < 2; i++) {
      const db = await createDb(fr.url);
      const app = await buildApp({ db, config: { logger: false, unauthRateLimit: 0 } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      apps.push({ app, db });
    }
    const urls = apps.map(({ app }) => {
      const a = app.server.address();
      return `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/v1`;
    });
    r = {
      urls,
      stop: async () => undefined,
      async send(i, method, p, body, token): Promise<ApiResult> {
        const res = await fetch(`${urls[i % urls.length]}${p}`, {
          method,
          headers: { 'x-access-token': token, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: body !== undefined ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
      },
    };
  }, 90_000);
  afterAll(async () => {
    for (const { app, db } of apps) {
      await app.close();
      await db.close();
    }
    await w?.db.close();
    await done?.();
  });
  return () => ({ w, r });
}
