import { conflict } from '../../../domain/errors.js';
import type { CarrierConnector } from '../connector.js';
import { TableCarrier } from './carrier.js';

// The rate table (docs/carriers.md "The rate table"): an offline test carrier priced from the
// operator's /v1/ops/carrier-rates rows. It takes no key and calls nothing; its labels are test
// labels (fos draws them, with a banner, and never pushes their made-up tracking to a shop).

/** The table a team without integration rows rates with (the demo's default). */
export const BUILT_IN_TABLE = { id: 'table', name: 'Rate table (test carrier)', type: 'TABLE' } as const;

export const table: CarrierConnector = {
  type: BUILT_IN_TABLE.type,
  label: BUILT_IN_TABLE.name,
  defaultBaseUrl: null,
  credentialFields: [],
  testLabels: true,
  isTestKey: () => true,
  open: (account) => new TableCarrier(account),
  async test(account) {
    const rates = await account.db.prisma.carrierRate.count({ where: { team_id: account.team_id } });
    if (!rates) throw conflict('The rate table has no rates (POST /v1/ops/carrier-rates).');
    return `Rate table with ${rates} service${rates === 1 ? '' : 's'} (a test carrier).`;
  },
};
