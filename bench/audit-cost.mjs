#!/usr/bin/env node
// `node bench/audit-cost.mjs [db-url]`: what the audit record adds to a write transaction
// (docs/audit.md, "Cost"). A one-row UPDATE transaction run alternately without and with an
// audit context (a fulfillment's: actor, target, three request fields), 4,000 pairs after 500
// warm-up pairs; prints the medians and their difference (`--json`: one JSON line, read by
// `npm run bench audit`). Default: a temp SQLite file. Needs dist/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb } from '../dist/db/client.js';
import { migrate } from '../dist/db/migrate.js';
import { transaction } from '../dist/db/tx.js';
import { statementsOf } from '../dist/db/statements.js';
import { newAuditContext, runAudited } from '../dist/domain/audit/context.js';
import { installAuditHook } from '../dist/domain/audit/record.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const given = args.find((a) => a !== '--json');
const dir = given ? null : mkdtempSync(path.join(tmpdir(), 'fos-audit-bench-'));
const url = given ?? `file:${dir}/bench.db`;
await migrate(url);
const db = await createDb(url);
installAuditHook();
await db.prisma.systemState.upsert({ where: { id: 'bench' }, create: { id: 'bench', value: 0 }, update: {} });

const fields = { packages: [{ id: 'p1' }], notify_customer: true, tracking_number: '1Z999' };
const write = () =>
  transaction(db, async (tx) => {
    await statementsOf(tx).run('UPDATE "system_state" SET "created_at" = ? WHERE "id" = ?', [new Date(), 'bench']);
    return { id: 'fo_1', status: 'CLOSED' };
  });
const audited = () =>
  runAudited(
    newAuditContext('fulfillPackage', {
      active: true,
      method: 'POST',
      path: '/v1/ops/packages/x/fulfill',
      ip: '127.0.0.1',
      userAgent: 'bench',
      traceId: 'bench',
      actor: { type: 'KEY', id: 'k', name: 'bench', teamId: 't' },
      target: { type: 'package', id: 'x' },
      fields,
    }),
    write,
  );
const timed = async (fn) => {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
for (let i = 0; i < 500; i++) {
  await write();
  await audited();
}
const without = [];
const withAudit = [];
for (let i = 0; i < 4000; i++) {
  without.push(await timed(write));
  withAudit.push(await timed(audited));
}
const median = (x) => x.sort((a, b) => a - b)[x.length >> 1];
const [a, b] = [median(without), median(withAudit)];
if (json) console.log(JSON.stringify({ provider: db.provider, withoutMs: a, withMs: b, addedMs: b - a }));
else
  console.log(
    `${db.provider}: median transaction ${a.toFixed(3)} ms without the audit record, ${b.toFixed(3)} ms with: +${(b - a).toFixed(3)} ms`,
  );
await db.prisma.auditEvent.deleteMany({ where: { trace_id: 'bench' } });
await db.close();
if (dir) rmSync(dir, { recursive: true, force: true });
