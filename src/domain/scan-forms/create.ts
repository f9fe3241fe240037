import { newId } from '../../db/ids.js';
import { inLists } from '../../db/in-lists.js';
import type { Db, TxClient } from '../../db/types.js';
import { conflict, invalid } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import { transaction } from '../../db/tx.js';
import { claimWarehouse } from '../warehouses/index.js';
import { loadScanForm, type ScanFormView } from './view.js';
import * as store from './store.js';

/** A scan form's manifest (PDF); the documents area renders it. */
const scanFormManifestUrl = (origin: string, scanFormId: string) => `${origin}/v1/ops/scan-forms/${scanFormId}/manifest`;

// Scan forms (end-of-day manifests, docs/scan-forms.md): one per warehouse, carrier and day of
// labels. Race-free by construction:
//  - the transaction first claims the warehouse row (claimWarehouse), so scan forms of one
//    warehouse are made one at a time on both databases;
//  - each package is taken by a compare-and-set UPDATE (scan_form_id still null, still labelled,
//    still PENDING or FULFILLED), and label void needs scan_form_id null in its own
//    compare-and-set, so a void racing a scan form has exactly one winner.

export interface ScanFormInput {
  warehouse_id: string;
  carrier_id: string;
  /** YYYY-MM-DD (UTC) of the labels to gather; default today. */
  date?: string;
  /** Only these packages (each must qualify); default every qualifying package. */
  package_ids?: string[];
}

export interface ScanFormCaller {
  teamId: string;
  keyId: string | null;
}

function dayRange(date: string | undefined): { day: string; from: Date; to: Date } {
  const day = date ?? new Date().toISOString().slice(0, 10);
  const from = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(from.getTime()) || from.toISOString().slice(0, 10) !== day)
    throw invalid('body.date', 'must be a calendar date, YYYY-MM-DD');
  return { day, from, to: new Date(from.getTime() + 86_400_000) };
}

export async function createScanForm(db: Db, caller: ScanFormCaller, input: ScanFormInput, origin = ''): Promise<ScanFormView> {
  const { day, from, to } = dayRange(input.date);
  const id = newId();
  await transaction(db, async (tx) => {
    await claimWarehouse(tx, input.warehouse_id, caller.teamId);
    const candidates = await store.findManifestCandidates(tx, {
      teamId: caller.teamId,
      carrierId: input.carrier_id,
      warehouseId: input.warehouse_id,
      from,
      to,
      packageIds: input.package_ids,
    });
    if (input.package_ids) {
      const found = new Set(candidates.map((c) => c.package_id));
      const missing = input.package_ids.filter((p) => !found.has(p));
      if (missing.length) {
        throw conflict(
          `${missing.length} package(s) cannot go on this scan form: not labelled by ${input.carrier_id} on ${day} at this warehouse, voided, or already manifested`,
          { package_ids: missing },
        );
      }
    }
    const taken = await claim(
      tx,
      id,
      candidates.map((c) => c.package_id),
    );
    if (!taken.length) {
      throw conflict(
        `No labelled, unmanifested ${input.carrier_id} packages at warehouse ${input.warehouse_id} on ${day}: nothing to put on a scan form.`,
      );
    }
    if (input.package_ids && taken.length !== input.package_ids.length) {
      throw conflict('Some of the packages changed while the scan form was being made (voided or manifested); try again.');
    }
    for (const some of inLists(taken)) {
      await store.markLabelsScanned(tx, some);
    }
    await store.insertScanForm(tx, {
      id,
      team_id: caller.teamId,
      warehouse_id: input.warehouse_id,
      carrier_id: input.carrier_id,
      carrier_name: candidates[0]?.carrier_name ?? null,
      form_date: day,
      package_count: taken.length,
      manifest_url: scanFormManifestUrl(origin, id),
      created_by_key_id: caller.keyId,
    });
    await enqueueEvent(tx, caller.teamId, 'scan_form.created', {
      scan_form_id: id,
      warehouse_id: input.warehouse_id,
      carrier_id: input.carrier_id,
      form_date: day,
      package_count: taken.length,
    });
  });
  return loadScanForm(db.prisma, caller.teamId, id);
}

/** Compare-and-set of each package onto the form; returns the ids this transaction took. */
async function claim(tx: TxClient, formId: string, ids: string[]): Promise<string[]> {
  const now = new Date();
  let count = 0;
  for (const some of inLists(ids)) {
    const r = await store.takePackages(tx, formId, some, now);
    count += r.count;
  }
  if (count === ids.length) return ids;
  const rows = await store.findFormPackageIds(tx, formId);
  return rows.map((r) => r.id);
}
