import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { listOf } from '../../../contract/common.js';
import {
  StorageRunBody,
  StorageRunResultSchema,
  StorageSnapshotListQuery,
  StorageSnapshotSchema,
} from '../../../contract/storage-billing.js';
import { listStorageSnapshots } from '../../../domain/billing/index.js';
import { runStorageForDate, type DayResult } from '../../../domain/billing/index.js';

// Daily storage billing, ops family (docs/billing.md "Storage"): an operator takes a day (the
// server's schedule takes each day by itself) and lists the snapshots taken.

const tags = ['Billing'];

const runView = (r: DayResult) => ({
  warehouse_id: r.warehouse_id,
  warehouse_name: r.warehouse_name,
  date: r.date,
  time_zone: r.time_zone,
  created: r.created,
  run_id: r.run.id,
  source: r.run.source,
  cutoff_at: r.run.cutoff_at,
  taken_at: r.run.created_at,
  snapshot_count: r.run.snapshot_count,
  charge_count: r.run.charge_count,
  amount: r.amount,
});

export default async function routes(app: FastifyInstance) {
  app.post<{ Body: Static<typeof StorageRunBody> }>(
    '/v1/ops/billing/storage-runs',
    {
      config: { permission: 'WRITE_CHARGES', family: 'ops' },
      schema: {
        operationId: 'runStorageBilling',
        tags,
        summary: "Take a day's storage snapshot and bill it, for the team's warehouses or one (201 taken, 200 all taken before)",
        description:
          "The day must have ended in each warehouse's time zone (else 409). A day already taken is not taken again: its run says created false, with what it took and billed.",
        body: StorageRunBody,
        response: { 200: StorageRunResultSchema, 201: StorageRunResultSchema },
      },
    },
    async (request, reply) => {
      const result = await runStorageForDate(app.db, request.principal.teamId, request.body, app.now());
      const runs = result.runs.map(runView);
      return reply.code(runs.some((r) => r.created) ? 201 : 200).send({ date: result.date, runs });
    },
  );

  app.get<{ Querystring: Static<typeof StorageSnapshotListQuery> }>(
    '/v1/ops/billing/storage-snapshots',
    {
      config: { permission: 'READ_CHARGES', family: 'ops' },
      schema: {
        operationId: 'listStorageSnapshots',
        tags,
        summary: "List the daily storage snapshots of the team's warehouses, newest day first by default",
        querystring: StorageSnapshotListQuery,
        response: { 200: listOf(StorageSnapshotSchema) },
      },
    },
    async (request) => listStorageSnapshots(app.db, request.principal.teamId, request.query),
  );
}
