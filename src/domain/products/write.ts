import type { ComponentKind, Db } from '../../db/types.js';
import * as records from './store/records.js';
import { isUniqueViolation } from '../../db/client.js';
import { conflict, notFound } from '../errors.js';
import { unitsOf, type MeasurementSystem } from '../teams/index.js';
import { assertNoCycle, replaceComponents, resolveComponents } from './components.js';
import { columnsOf, mergeConfig, searchColumns, type ProductInput, type ProductType } from './fields.js';
import type { Client } from './reach.js';
import { transaction } from '../../db/tx.js';
import { assertSkuFree } from './sku.js';

// Product writes shared by both path families. Each is one transaction.

const KINDS: [ComponentKind, 'bundle_components' | 'assembly_components'][] = [
  ['VIRTUAL_BUNDLE', 'bundle_components'],
  ['ASSEMBLY', 'assembly_components'],
];

/** Who owns a new product, and whose units it defaults to. */
export interface Owner {
  team_id: string;
  merchant_team_id: string | null;
  fulfiller_team_id: string | null;
  measurement_system: MeasurementSystem;
}

async function inTransaction<T>(
  db: Db,
  work: (tx: Client) => Promise<T>,
  sku?: { teamId: () => Promise<string | null> | string | null; sku?: string | null; exceptId?: string },
): Promise<T> {
  try {
    return await transaction(db, work);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // A concurrent write of the same SKU (another case, perhaps) passed its check at the same time:
    // the unique index (team_id, lower(sku)) refused this one; name the product that has it.
    const teamId = sku?.sku ? await sku.teamId() : null;
    if (teamId) await assertSkuFree(db.prisma, teamId, sku!.sku, sku!.exceptId);
    // Otherwise only a racing write of the same component list can hit the unique component index.
    throw conflict('The product changed concurrently; retry the request.');
  }
}

/**
 * Creates a product for the owner `ownerOf` settles inside the transaction. Units default to the
 * owner's measurement system; explicit values override. Components must be products of the
 * owner's team within `reach`. Returns the new id.
 */
export function createProduct(
  db: Db,
  reach: string[],
  input: ProductInput & { name: string; type: ProductType },
  ownerOf: (tx: Client) => Promise<Owner>,
): Promise<string> {
  let teamId: string | null = null;
  return inTransaction(
    db,
    async (tx) => {
      const owner = await ownerOf(tx);
      teamId = owner.team_id;
      await assertSkuFree(tx, owner.team_id, input.sku);
      // One after the other: a transaction's queries share one connection.
      const resolved = [];
      for (const [kind, field] of KINDS)
        resolved.push(await resolveComponents(tx, { team_id: owner.team_id }, reach, kind, input[field] ?? []));
      const product = await records.insertProduct(tx, {
        ...unitsOf(owner.measurement_system),
        ...columnsOf(input),
        config: mergeConfig(input.config ?? {}, null),
        team_id: owner.team_id,
        merchant_team_id: owner.merchant_team_id,
        fulfiller_team_id: owner.fulfiller_team_id,
        ...searchColumns({ name: input.name, sku: input.sku ?? null, barcode: input.barcode ?? null }),
      } as never);
      for (const [i, [kind]] of KINDS.entries()) {
        if (resolved[i].length) await replaceComponents(tx, product.id, kind, resolved[i]);
      }
      return product.id;
    },
    { teamId: () => teamId, sku: input.sku },
  );
}

/**
 * Partial update of a product in `reach` (404 otherwise). The row is written first, which locks
 * it until commit, so concurrent updates of one product serialize; config, search columns and
 * component lists are then derived from the locked row.
 */
export function updateProduct(db: Db, reach: string[], id: string, input: ProductInput): Promise<void> {
  if (!Object.keys(input).length) return Promise.resolve();
  return inTransaction(
    db,
    async (tx) => {
      const locked = await records.updateProductInTeams(tx, reach, id, { ...columnsOf(input), updated_at: new Date() } as never);
      if (!locked.count) throw notFound('Product', id);
      const product = (await records.findProduct(tx, id))!;
      if (input.sku) await assertSkuFree(tx, product.team_id, input.sku, id);
      const derived: Record<string, unknown> = {};
      if (input.config !== undefined) derived.config = mergeConfig(input.config, product.config);
      const search = searchColumns(product);
      if (search.search_text !== product.search_text) derived.search_text = search.search_text;
      if (search.name_sku_search_text !== product.name_sku_search_text) derived.name_sku_search_text = search.name_sku_search_text;
      if (Object.keys(derived).length) await records.updateProductRow(tx, id, derived as never);
      for (const [kind, field] of KINDS) {
        const entries = input[field];
        if (entries === undefined) continue;
        const resolved = await resolveComponents(tx, product, reach, kind, entries);
        await assertNoCycle(
          tx,
          id,
          resolved.map((r) => r.component_product_id),
          kind,
        );
        await replaceComponents(tx, id, kind, resolved);
      }
    },
    {
      // The row's update is what hit the index: its team is read again after the rollback.
      teamId: async () => (await records.findProductTeam(db.prisma, id))?.team_id ?? null,
      sku: input.sku,
      exceptId: id,
    },
  );
}
