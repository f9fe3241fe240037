import { createHash } from 'node:crypto';
import { newId } from '../../db/ids.js';
import { isUniqueViolation } from '../../db/client.js';
import { inLists } from '../../db/in-lists.js';
import type { Db, Prisma, TxClient } from '../../db/types.js';
import { conflict } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import { testLabelFlag } from '../carrier-integrations/index.js';
import { transaction } from '../../db/tx.js';
import { roundMoney } from '../charges/index.js';
import { correctionBiller, type BilledCorrection } from './billing.js';
import type { ImportView } from './view.js';
import * as store from './store.js';

// Carrier invoice imports (spec 2.7 carrier_correction; docs/carrier-invoices.md). Each line is
// matched to one of the team's labels by tracking number; the label's carrier_correction records
// it (version, source_import, amounts), and the difference with what was billed goes to the
// merchant as a SHIPPING charge or credit through the rate card (billing.ts).
//
// Idempotent twice over: the same lines again (whatever the file name) replay the stored result
// (unique team + content hash, inserted first, so two identical imports at once also give one);
// and a line whose invoice number and corrected cost the label already has changes nothing, so an
// invoice that repeats a line of an earlier one is not billed twice. Labels change by
// compare-and-set on correction_version.

export interface InvoiceLine {
  tracking_number: string;
  carrier_invoice_number: string;
  carrier_invoice_date: string;
  transaction_date?: string;
  correction_type?: string;
  correction_reason?: string;
  carrier_service_code?: string;
  published_amount?: number;
  incentive_amount?: number;
  corrected_carrier_cost: number;
  currency: string;
}

export interface ImportInput {
  filename: string;
  lines: InvoiceLine[];
}

export interface ImportCaller {
  teamId: string;
  keyId: string | null;
}

export type { MatchedLabel } from './store.js';

type Correction = Record<string, unknown> & { version: number; carrier_invoice_number: string; corrected_carrier_cost: number };

/** Canonical JSON of the lines (sorted keys): the same lines hash the same. */
function contentHash(lines: InvoiceLine[]): string {
  const canon = lines.map((l) =>
    Object.fromEntries(
      Object.entries(l)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  );
  return createHash('sha256').update(JSON.stringify(canon)).digest('hex');
}

async function replay(client: Db['prisma'] | TxClient, teamId: string, hash: string): Promise<ImportView | null> {
  const prior = await store.findImportByHash(client, teamId, hash);
  return prior ? { ...(prior.result as unknown as ImportView), replayed: true } : null;
}

export async function importInvoice(db: Db, caller: ImportCaller, input: ImportInput): Promise<{ result: ImportView; created: boolean }> {
  const hash = contentHash(input.lines);
  const prior = await replay(db.prisma, caller.teamId, hash);
  if (prior) return { result: prior, created: false };
  try {
    const result = await transaction(db, (tx) => apply(tx, caller, input, hash));
    return { result, created: true };
  } catch (err) {
    const again = isUniqueViolation(err) ? await replay(db.prisma, caller.teamId, hash) : null;
    if (!again) throw err;
    return { result: again, created: false };
  }
}

async function apply(tx: TxClient, caller: ImportCaller, input: ImportInput, hash: string): Promise<ImportView> {
  const id = newId();
  const now = new Date();
  // First statement, a write: the unique (team, hash) holds off an identical import racing this one.
  await store.insertImport(tx, {
    id,
    team_id: caller.teamId,
    filename: input.filename,
    content_hash: hash,
    line_count: input.lines.length,
    result: {},
    created_by_key_id: caller.keyId,
  });
  const labels = await labelsByTracking(tx, caller.teamId, [...new Set(input.lines.map((l) => l.tracking_number))]);

  const unmatched: ImportView['unmatched'] = [];
  let unchanged = 0;
  // Per label: the correction as it stands while the file is read (a file may correct one label twice).
  const state = new Map<string, { label: store.MatchedLabel; correction: Correction | null; changed: boolean; lastLine?: InvoiceLine }>();
  input.lines.forEach((line, i) => {
    const label = labels.get(line.tracking_number);
    const miss = (reason: string) => unmatched.push({ line: i + 1, tracking_number: line.tracking_number, reason });
    if (!label) return miss('no label of this team has this tracking number');
    if (label.voided_at) return miss('the label is voided');
    if (label.currency && line.currency !== label.currency)
      return miss(`currency ${line.currency} differs from the label's ${label.currency}`);
    const s = state.get(label.id) ?? { label, correction: label.carrier_correction as Correction | null, changed: false };
    state.set(label.id, s);
    const prev = s.correction;
    if (
      prev &&
      prev.carrier_invoice_number === line.carrier_invoice_number &&
      prev.corrected_carrier_cost === line.corrected_carrier_cost
    ) {
      unchanged++;
      return;
    }
    const original = label.price ?? 0;
    s.correction = {
      version: (prev?.version ?? 0) + 1,
      source_import: { filename: input.filename, import_id: id },
      carrier_invoice_number: line.carrier_invoice_number,
      carrier_invoice_date: line.carrier_invoice_date,
      transaction_date: line.transaction_date ?? null,
      confirmed_at: now.toISOString(),
      tracking_number: line.tracking_number,
      correction_type: line.correction_type ?? null,
      correction_reason: line.correction_reason ?? null,
      carrier_service_code: line.carrier_service_code ?? null,
      published_amount: line.published_amount ?? null,
      incentive_amount: line.incentive_amount ?? null,
      original_carrier_cost: original,
      carrier_adjustment_amount: roundMoney(line.corrected_carrier_cost - original),
      corrected_carrier_cost: line.corrected_carrier_cost,
      currency: line.currency,
    };
    s.changed = true;
    s.lastLine = line;
  });

  const charges: BilledCorrection[] = [];
  const changed = [...state.values()].filter((s) => s.changed).sort((a, b) => (a.label.id < b.label.id ? -1 : 1));
  const bill = await correctionBiller(
    tx,
    changed.map((s) => s.label),
  );
  for (const s of changed) {
    const { label } = s;
    const { count } = await store.correctLabel(tx, label.id, label.correction_version, s.correction as Prisma.InputJsonValue);
    if (!count)
      throw conflict(
        `The label with tracking number ${label.tracking_code} was corrected by another import at the same time; import the file again.`,
      );
    const before = (label.carrier_correction as Correction | null)?.corrected_carrier_cost ?? label.price ?? 0;
    const delta = roundMoney(s.correction!.corrected_carrier_cost - before);
    const charge = delta !== 0 ? await bill(label, delta, s.lastLine!) : null;
    if (charge) charges.push(charge);
    await enqueueEvent(tx, caller.teamId, 'shipping_label.corrected', {
      shipping_label_id: label.id,
      package_id: label.package_id,
      tracking_code: label.tracking_code,
      test_label: testLabelFlag(label),
      import_id: id,
      version: s.correction!.version,
      corrected_carrier_cost: s.correction!.corrected_carrier_cost,
      cost_delta: delta,
      charge_id: charge?.id ?? null,
    });
  }

  const result: ImportView = {
    id,
    filename: input.filename,
    replayed: false,
    line_count: input.lines.length,
    corrected: changed.length,
    unchanged,
    unmatched,
    charges,
    created_by_key_id: caller.keyId,
    created_at: now.toISOString(),
  };
  await store.setImportResult(tx, id, result as unknown as Prisma.InputJsonValue);
  return result;
}

/** The team's labels by tracking code; of several with one code, an unvoided one. */
async function labelsByTracking(tx: TxClient, teamId: string, codes: string[]): Promise<Map<string, store.MatchedLabel>> {
  const out = new Map<string, store.MatchedLabel>();
  for (const some of inLists(codes)) {
    const rows = await store.findLabelsByTracking(tx, teamId, some);
    for (const r of rows) {
      const seen = out.get(r.tracking_code!);
      if (!seen || (seen.voided_at && !r.voided_at)) out.set(r.tracking_code!, r);
    }
  }
  return out;
}
