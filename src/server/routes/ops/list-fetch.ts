import type { Static } from 'typebox';
import type { ChargeListQuery } from '../../../contract/charges.js';
import type { MovementListQuery } from '../../../contract/inventory.js';
import { MOVEMENT_KINDS } from '../../../contract/inventory-enums.js';
import { PACKAGE_STATUSES, type PackageListQuery } from '../../../contract/packages.js';
import type { OpsProductQuery } from '../../../contract/products.js';
import type { Db } from '../../../db/types.js';
import { listCharges } from '../../../domain/charges/index.js';
import { chargeView } from '../../../domain/charges/index.js';
import { listPackages } from '../../../domain/fulfillment/index.js';
import { listMovements } from '../../../domain/inventory/index.js';
import type { Principal } from '../../../domain/keys/index.js';
import { listOrders, type OrderListQuery } from '../../../domain/orders/index.js';
import { csvList, enumList } from '../../../domain/pagination.js';
import { listOpsProducts } from '../../../domain/products/index.js';

// One fetch per listed resource: the list route's query as validated -> the domain call -> the
// page as the list shows it. The list routes and their exports (exports.ts) both call these, so a
// query transform (a comma list, an enum check, a view of the record) is written once.

export const fetchList = {
  orders: (db: Db, p: Principal, q: OrderListQuery) => listOrders(db, p.teamId, q),
  products: (db: Db, p: Principal, q: Static<typeof OpsProductQuery>) => listOpsProducts(db, p, q as never),
  movements: (db: Db, p: Principal, q: Static<typeof MovementListQuery>) =>
    listMovements(db, p.teamId, {
      ...q,
      product_id: csvList(q.product_id),
      warehouse_id: csvList(q.warehouse_id),
      kind: enumList('query.kind', q.kind, MOVEMENT_KINDS),
    }),
  charges: async (db: Db, p: Principal, q: Static<typeof ChargeListQuery>) => {
    const page = await listCharges(db, p.teamId, q as never);
    return { data: page.data.map(chargeView), meta: page.meta };
  },
  packages: (db: Db, p: Principal, q: Static<typeof PackageListQuery>) =>
    listPackages(db, p.teamId, { ...q, status: enumList('query.status', q.status, PACKAGE_STATUSES) } as never),
};
