// An in-process API for tests: a fresh database (SQLite, or PostgreSQL when
// FOS_TEST_DB=postgres), bootstrapped like a first `fos serve`, plus helpers to make teams and
// keys. Requests go through Fastify's inject (the full HTTP pipeline without a socket).
//
//   const t = await testApp();
//   const res = await t.call('GET', '/v1/ops/products', { token: t.adminToken });
//   afterAll(() => t.close());

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppConfig } from '../../src/server/app.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import { createKey } from '../../src/domain/keys/keys.js';
import { createRole } from '../../src/domain/keys/roles.js';
import * as teams from '../../src/domain/teams/teams.js';
import type { Permission } from '../../src/contract/permissions.js';
import type { Db } from '../../src/db/types.js';
import { freshDb } from './db.js';
import { setSecretKey } from '../../src/domain/secrets/secret-box.js';
import { randomBytes } from 'node:crypto';

// Stored credentials are sealed with the server's key (fos serve loads it at start).
setSecretKey(randomBytes(32));

/** A logger that drops everything, for workers a test drives itself. */
export const silent = { debug() {}, info() {}, warn() {}, error() {} };

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  adminToken: string;
  teamId: string;
  call(method: string, url: string, opts?: CallOptions): Promise<LightMyRequestResponse & { body: string; json<T = any>(): T }>;
  /** A key in teamId (or another team) with the given power role / permissions (through a custom role). */
  key(opts?: {
    teamId?: string;
    permissions?: Permission[];
    powerRole?: 'ADMIN' | 'MEMBER';
    tier?: number;
  }): Promise<{ id: string; token: string }>;
  /** A merchant team delegated to teamId, with an ADMIN key. */
  merchant(opts?: {
    measurement_system?: 'METRIC' | 'IMPERIAL';
    rate_card?: unknown;
  }): Promise<{ teamId: string; token: string; delegationId: string }>;
  close(): Promise<void>;
}

let roleCounter = 0;

/** `plugins`: extra routes registered before the app is ready (test doubles of endpoints not built yet). */
export async function testApp(config: AppConfig = {}, plugins: Array<(app: FastifyInstance) => Promise<void>> = []): Promise<TestApp> {
  const { db, cleanup } = await freshDb();
  const boot = await bootstrapIfEmpty(db);
  if (!boot) throw new Error('bootstrap did not run on a fresh database');
  // Suites send many bad keys on purpose: the per-address limit of failed authentications is off
  // unless a test sets it (test/api/unauth-limit.test.ts).
  // Uploaded files go to a directory of this app's own, removed with it.
  const filesDir = config.storage ? undefined : await mkdtemp(path.join(tmpdir(), 'fos-files-'));
  const app = await buildApp({ db, config: { logger: false, unauthRateLimit: 0, storage: filesDir, ...config } });
  for (const plugin of plugins) await app.register(plugin);
  await app.ready();

  const t: TestApp = {
    app,
    db,
    adminToken: boot.token,
    teamId: boot.teamId,
    async call(method, url, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      const token = opts.token === undefined ? boot.token : opts.token;
      if (token) headers['x-access-token'] = token;
      const res = await app.inject({
        method: method as 'GET',
        url,
        query: opts.query ? Object.fromEntries(Object.entries(opts.query).map(([k, v]) => [k, String(v)])) : undefined,
        headers,
        ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
      });
      return res as never;
    },
    async key({ teamId = boot.teamId, permissions, powerRole, tier } = {}) {
      const roleIds: string[] = [];
      if (permissions) {
        const role = await createRole(db, teamId, { name: `role-${++roleCounter}`, permissions });
        roleIds.push(role.id);
      }
      const key = await createKey(
        db,
        teamId,
        {
          name: `test key ${roleCounter}`,
          power_role: powerRole ?? (permissions ? 'MEMBER' : 'ADMIN'),
          role_ids: roleIds,
          rate_tier: tier,
        },
        null,
      );
      return { id: key.id, token: key.token };
    },
    async merchant({ measurement_system = 'METRIC', rate_card } = {}) {
      const team = await teams.createTeam(db, { name: `Merchant ${++roleCounter}`, kind: 'MERCHANT', measurement_system });
      const delegation = await teams.createDelegation(db, {
        merchant_team_id: team.id,
        fulfiller_team_id: boot.teamId,
        rate_card,
      });
      const key = await createKey(db, team.id, { name: 'merchant admin', power_role: 'ADMIN' }, null);
      return { teamId: team.id, token: key.token, delegationId: delegation.id };
    },
    async close() {
      await app.close();
      await db.close();
      await cleanup();
      if (filesDir) await rm(filesDir, { recursive: true, force: true });
    },
  };
  return t;
}
