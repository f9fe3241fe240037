import type { ComponentKind } from '../../db/types.js';
import { invalid, notFound } from '../errors.js';
import type { ComponentInput } from './fields.js';
import type { Client } from './reach.js';
import * as records from './store/records.js';

// bundle_components / assembly_components: resolving references and replacing a product's list.
// Rule (spec 4.2): omitted keeps the list, [] removes all, an array replaces all. Callers run
// this inside the transaction that first locked the parent row (updateMany on the product), so
// concurrent replacements of one product serialize; the unique (parent, kind, component) index
// backs that up.

export const COMPONENT_FIELDS = {
  VIRTUAL_BUNDLE: 'bundle_components',
  ASSEMBLY: 'assembly_components',
} as const satisfies Record<ComponentKind, string>;

export interface ResolvedComponent {
  component_product_id: string;
  component_quantity: number;
}

/**
 * Resolves each entry to a product of the parent's team. An id outside the caller's reach is
 * 404 (like any other team's id); an id in reach but of another team, an unknown or ambiguous
 * SKU, the parent itself or a repeated component are validation errors on the entry.
 */
export async function resolveComponents(
  tx: Client,
  parent: { id?: string; team_id: string },
  reach: string[],
  kind: ComponentKind,
  entries: ComponentInput[],
): Promise<ResolvedComponent[]> {
  const field = `body.${COMPONENT_FIELDS[kind]}`;
  if (!entries.length) return [];
  const ids = [...new Set(entries.flatMap((e) => (e.component_product_id ? [e.component_product_id] : [])))];
  const skus = [...new Set(entries.flatMap((e) => (e.component_product_sku ? [e.component_product_sku] : [])))];
  const [byIdRows, bySkuRows] = await Promise.all([
    ids.length ? records.findProductsById(tx, ids, reach) : [],
    skus.length ? records.findProductsBySku(tx, skus, parent.team_id) : [],
  ]);
  const byId = new Map(byIdRows.map((p) => [p.id, p]));
  const bySku = new Map<string, string[]>();
  for (const p of bySkuRows) bySku.set(p.sku!, [...(bySku.get(p.sku!) ?? []), p.id]);

  const seen = new Set<string>();
  return entries.map((entry, i) => {
    const path = `${field}.${i}`;
    let id: string | undefined;
    if (entry.component_product_id) {
      const product = byId.get(entry.component_product_id);
      if (!product) throw notFound('Component product', entry.component_product_id);
      if (product.team_id !== parent.team_id) {
        throw invalid(`${path}.component_product_id`, 'must name a product of the same team as this product');
      }
      if (entry.component_product_sku && product.sku !== entry.component_product_sku) {
        throw invalid(`${path}.component_product_sku`, 'does not match the SKU of component_product_id');
      }
      id = product.id;
    } else if (entry.component_product_sku) {
      const matches = bySku.get(entry.component_product_sku) ?? [];
      if (matches.length !== 1) {
        throw invalid(
          `${path}.component_product_sku`,
          matches.length ? 'matches several products of this team; send component_product_id instead' : 'matches no product of this team',
        );
      }
      id = matches[0];
    } else {
      throw invalid(path, 'needs component_product_id or component_product_sku');
    }
    if (id === parent.id) throw invalid(path, 'a product cannot be its own component');
    if (seen.has(id)) throw invalid(path, 'names the same component product as an earlier entry');
    seen.add(id);
    return { component_product_id: id, component_quantity: entry.component_quantity ?? 1 };
  });
}

/** Rejects components that contain the parent (directly or deeper), which would make a cycle. */
export async function assertNoCycle(tx: Client, parentId: string, componentIds: string[], kind: ComponentKind) {
  const visited = new Set<string>();
  let frontier = componentIds;
  // One query per level of nesting; real bundles are a few levels deep at most.
  for (let depth = 0; frontier.length && depth < 32; depth++) {
    const edges = await records.findComponentEdges(tx, frontier);
    const next: string[] = [];
    for (const { component_product_id: id } of edges) {
      if (id === parentId) throw invalid(`body.${COMPONENT_FIELDS[kind]}`, 'a component contains this product, which would make a cycle');
      if (!visited.has(id)) {
        visited.add(id);
        next.push(id);
      }
    }
    frontier = next;
  }
}

/** Makes the parent's list of this kind exactly `desired`; unchanged entries keep their ids. */
export async function replaceComponents(tx: Client, parentId: string, kind: ComponentKind, desired: ResolvedComponent[]) {
  const existing = await records.findComponentsOf(tx, parentId, kind);
  const current = new Map(existing.map((c) => [c.component_product_id, c]));
  const wanted = new Set(desired.map((d) => d.component_product_id));
  const stale = existing.filter((c) => !wanted.has(c.component_product_id)).map((c) => c.id);
  if (stale.length) await records.deleteComponentsIn(tx, stale);
  const fresh: ResolvedComponent[] = [];
  for (const d of desired) {
    const row = current.get(d.component_product_id);
    if (!row) fresh.push(d);
    else if (row.component_quantity !== d.component_quantity) {
      await records.updateComponentQuantity(tx, row.id, d.component_quantity);
    }
  }
  if (fresh.length) {
    await records.insertComponents(
      tx,
      fresh.map((d) => ({ ...d, kind, parent_product_id: parentId })),
    );
  }
}
