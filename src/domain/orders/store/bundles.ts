import type { Db, TxClient } from '../../../db/types.js';

// Products with their virtual bundles' components (convert.ts, edit-lines.ts): a bundle is sold as
// an ORIGINAL line and ships as CORE lines of its components.

type Client = Db['prisma'] | TxClient;

/** These products, each with its VIRTUAL_BUNDLE components (oldest first) and their products. */
export function findProductsWithBundles(client: Client, ids: string[]) {
  return client.product.findMany({
    where: { id: { in: ids } },
    include: { components: { where: { kind: 'VIRTUAL_BUNDLE' }, include: { component: true }, orderBy: { created_at: 'asc' } } },
  });
}
