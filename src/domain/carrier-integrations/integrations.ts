import { transaction } from '../../db/tx.js';
import type { CarrierIntegration, Db, Prisma } from '../../db/types.js';
import * as store from './store.js';
import { conflict, invalid, notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { openJson, sealJson } from '../secrets/index.js';
import { checkBaseUrl, type OutboundPolicy } from './outbound.js';
import type { CarrierAccount, CarrierCredentials } from '../../connectors/carriers/connector.js';
import { BUILT_IN_TABLE, carrierConnector, carrierConnectorOrNull } from '../../connectors/carriers/registry.js';

// Carrier integrations (docs/carriers.md): the carrier-platform accounts a team rates and buys
// labels through. Credentials are sealed (secret-box.ts, context "carrier-integration:<id>") and
// never returned or logged; reads say only whether they are set. What differs by type (default
// base URL, credentials taken, test keys, webhooks) is its connector's (src/connectors/carriers):
// a connector without credential fields is offline, like the rate table (a test carrier: its labels
// are fos's own documents). A team with no integration rows rates with the built-in table
// (id "table"), the demo's default.

import { INTEGRATION_TYPES } from '../../contract/enums.js';
import { noteAuditBefore } from '../audit/index.js';
export { INTEGRATION_TYPES };
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

export type Credentials = CarrierCredentials;

export interface IntegrationInput {
  name: string;
  type: IntegrationType;
  credentials?: Credentials;
  api_base_url?: string;
  warehouse_ids?: string[] | null;
  enabled_carriers?: string[] | null;
}

export interface IntegrationPatch {
  name?: string;
  credentials?: Credentials;
  api_base_url?: string | null;
  warehouse_ids?: string[] | null;
  enabled_carriers?: string[] | null;
  enabled?: boolean;
}

export { BUILT_IN_TABLE };

/**
 * A label from the rate table (built in, or a TABLE integration row of any id): a test label no
 * carrier accepts. Recognised by the integration type's connector, never by the id alone.
 */
export const isTestLabel = (l: { carrier_integration_type?: string | null; carrier_integration_id?: string | null }) =>
  !!carrierConnectorOrNull(l.carrier_integration_type)?.testLabels || l.carrier_integration_id === BUILT_IN_TABLE.id;

/** The `test_label` member of an event payload carrying this label's tracking (webhooks/test-labels.ts). */
export const testLabelFlag = (label: { carrier_integration_type?: string | null; carrier_integration_id?: string | null } | null) =>
  label ? isTestLabel(label) : false;

/**
 * Why a package could not be rated when no integration serves its warehouse, and the ways back
 * (docs/carriers.md "When no integration is left"). The built-in table is not brought back by
 * itself: its labels are test labels no carrier accepts, and a team that connected a real
 * carrier would print them without noticing.
 */
export const NO_INTEGRATION_MESSAGE =
  "No carrier integration is enabled for this package's warehouse: connect one (fos carriers connect easypost|shippo), " +
  're-enable one (fos carriers update <id> --enabled true), or rate with the built-in test table again: fos carriers connect table.';

const context = (id: string) => `carrier-integration:${id}`;

/** A provider's test keys (EasyPost EZTK…, Shippo shippo_test_…) make a test integration; the table is one. */
const isTestKey = (type: string, key: string | undefined) => carrierConnector(type).isTestKey(key);

/** An offline carrier (the rate table): no credentials, no base URL, no webhooks. */
const offline = (type: string) => !carrierConnector(type).credentialFields.length;

const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : null);

export const webhookPath = (id: string) => `/v1/carriers/${id}/webhooks`;

export function integrationView(r: CarrierIntegration) {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    api_base_url: r.api_base_url ?? carrierConnector(r.type).defaultBaseUrl,
    warehouse_ids: list(r.warehouse_ids),
    enabled_carriers: list(r.enabled_carriers),
    enabled: r.enabled,
    is_test: r.is_test,
    has_credentials: r.credentials_sealed !== null,
    has_webhook_secret: r.has_webhook_secret,
    webhook_path: carrierConnector(r.type).webhooks ? webhookPath(r.id) : null,
    built_in: false,
    disabled_at: r.disabled_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** The built-in table as a read-only entry of the list (a team without integration rows). */
function builtInView(): ReturnType<typeof integrationView> {
  const epoch = new Date(0);
  return {
    ...BUILT_IN_TABLE,
    api_base_url: null,
    warehouse_ids: null,
    enabled_carriers: null,
    enabled: true,
    is_test: true,
    has_credentials: false,
    has_webhook_secret: false,
    webhook_path: null,
    built_in: true,
    disabled_at: null,
    created_at: epoch,
    updated_at: epoch,
  };
}

function checkInput(type: string, creds: Credentials | undefined, baseUrl: string | null | undefined, policy: OutboundPolicy) {
  if (offline(type)) {
    if (creds) throw invalid('body.credentials', `a ${type} integration has no credentials`);
    if (baseUrl) throw invalid('body.api_base_url', `a ${type} integration calls no platform`);
  }
  if (baseUrl) checkBaseUrl(baseUrl, policy);
}

/** The credentials of an integration (for its adapter); never leaves the server. */
export function credentialsOf(r: Pick<CarrierIntegration, 'id' | 'credentials_sealed'>): Credentials | null {
  return r.credentials_sealed ? openJson<Credentials>(r.credentials_sealed, context(r.id)) : null;
}

async function checkWarehouses(db: Db, teamId: string, ids: string[] | null | undefined) {
  if (!ids?.length) return;
  const found = await store.countTeamWarehousesIn(db.prisma, teamId, ids);
  if (found !== new Set(ids).size) throw invalid('body.warehouse_ids', "names a warehouse that is not this team's");
}

export async function createIntegration(db: Db, teamId: string, input: IntegrationInput, policy: OutboundPolicy) {
  if (!offline(input.type) && !input.credentials)
    throw invalid('body.credentials', `is required for ${input.type} (the account's API key)`);
  checkInput(input.type, input.credentials, input.api_base_url, policy);
  await checkWarehouses(db, teamId, input.warehouse_ids);
  // The id is made first: the sealed credentials are bound to it.
  const row = await transaction(db, async (tx) => {
    const created = await store.insertIntegration(tx, {
      team_id: teamId,
      name: input.name,
      type: input.type,
      api_base_url: input.api_base_url ?? null,
      warehouse_ids: input.warehouse_ids ?? undefined,
      enabled_carriers: input.enabled_carriers ?? undefined,
      is_test: isTestKey(input.type, input.credentials?.api_key),
      has_webhook_secret: !!input.credentials?.webhook_secret,
    });
    if (!input.credentials) return created;
    return store.updateIntegrationRow(tx, created.id, { credentials_sealed: sealJson(input.credentials, context(created.id)) });
  });
  return integrationView(row);
}

export async function findIntegration(db: Db, teamId: string, id: string) {
  const row = await store.findTeamIntegration(db.prisma, teamId, id);
  if (!row) throw notFound('Carrier integration', id);
  return row;
}

export async function getIntegration(db: Db, teamId: string, id: string) {
  if (id === BUILT_IN_TABLE.id && !(await store.countTeamIntegrations(db.prisma, teamId))) return builtInView();
  return integrationView(await findIntegration(db, teamId, id));
}

export async function listIntegrations(db: Db, teamId: string, page: PageRequest) {
  const orderBy = [{ created_at: 'asc' }, { id: 'asc' }];
  const rows = await store.findIntegrationPage(db.prisma, pageArgs(page, { team_id: teamId }, orderBy));
  const p = toPage(rows, page, undefined, orderBy);
  const data: Array<ReturnType<typeof integrationView>> = p.data.map(integrationView);
  if (!data.length && !page.cursor && page.page === 0) data.push(builtInView());
  return { data, meta: p.meta };
}

export async function updateIntegration(db: Db, teamId: string, id: string, patch: IntegrationPatch, policy: OutboundPolicy) {
  const row = await findIntegration(db, teamId, id);
  noteAuditBefore(row, { key: row.name }); // "from" of the audit record; credentials are sealed and redacted
  checkInput(row.type, patch.credentials, patch.api_base_url, policy);
  await checkWarehouses(db, teamId, patch.warehouse_ids);
  const data: Prisma.CarrierIntegrationUpdateInput = {};
  if (patch.name !== undefined) data.name = patch.name;
  if (patch.api_base_url !== undefined) data.api_base_url = patch.api_base_url;
  if (patch.warehouse_ids !== undefined) data.warehouse_ids = patch.warehouse_ids ?? (null as never);
  if (patch.enabled_carriers !== undefined) data.enabled_carriers = patch.enabled_carriers ?? (null as never);
  if (patch.enabled !== undefined) Object.assign(data, { enabled: patch.enabled, disabled_at: patch.enabled ? null : new Date() });
  if (patch.credentials) {
    Object.assign(data, {
      credentials_sealed: sealJson(patch.credentials, context(id)),
      has_webhook_secret: !!patch.credentials.webhook_secret,
      is_test: isTestKey(row.type, patch.credentials.api_key),
    });
  }
  const { count } = await store.updateTeamIntegration(db.prisma, teamId, id, data as never);
  if (!count) throw notFound('Carrier integration', id);
  return integrationView(await findIntegration(db, teamId, id));
}

/** Disconnect: disabled and its credentials erased (labels bought through it keep their records). */
export async function disconnectIntegration(db: Db, teamId: string, id: string) {
  const { count } = await store.updateTeamIntegration(db.prisma, teamId, id, {
    enabled: false,
    disabled_at: new Date(),
    credentials_sealed: null,
    has_webhook_secret: false,
  });
  if (!count) throw notFound('Carrier integration', id);
  return integrationView(await findIntegration(db, teamId, id));
}

export const requireEnabled = (row: CarrierIntegration) => {
  if (!row.enabled) throw conflict(`Carrier integration ${row.id} is disabled.`);
  return row;
};

/** An integration row as its connector takes it (credentials opened here, never logged). */
export const accountOf = (db: Db, row: CarrierIntegration, policy: OutboundPolicy): CarrierAccount => ({
  db,
  team_id: row.team_id,
  id: row.id,
  name: row.name,
  credentials: credentialsOf(row),
  api_base_url: row.api_base_url,
  enabled_carriers: list(row.enabled_carriers),
  is_test: row.is_test,
  policy,
});
