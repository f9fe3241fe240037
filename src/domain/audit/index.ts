// The audit area's door: what code outside src/domain/audit/ may import (test/unit/layers.test.ts).
export {
  auditContext,
  newAuditContext,
  noteAuditBefore,
  noteAuditTarget,
  outsideAudit,
  runAudited,
  setAuditActor,
  skipAuditRecord,
  type AuditContext,
} from './context.js';
export { getAuditEvent, listAuditEvents, pruneAuditEvents } from './events.js';
export { auditRow, installAuditHook, recordResponseTarget } from './record.js';
