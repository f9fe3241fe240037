import type { Db } from '../../db/types.js';
import type { OutboundPolicy } from '../../domain/carrier-integrations/index.js';
import type { Address } from '../../domain/fulfillment/index.js';
import type { AddressCheck, CarrierAdapter, TrackerUpdate } from './types.js';

// The one shape every carrier connector implements (src/connectors/carriers/<name>/), like the
// sales channels' (src/connectors/channels/connector.ts). The domain (fulfillment, carrier
// integrations, label batches, webhooks) reaches a carrier only through it, from the registry keyed
// by the integration type (registry.ts), and never branches on a carrier's name
// (test/unit/layers.test.ts). Per integration the connector opens an adapter (types.ts:
// rates, buy, reconcile a lost purchase, refund = void); tracking arrives by the platform's
// webhooks (fos does not poll), read by `webhooks`.

/** The credential fields an integration takes (POST /v1/ops/carrier-integrations `credentials`). */
export interface CarrierCredentials {
  api_key: string;
  webhook_secret?: string;
}

/** One integration as its connector sees it: who it is, its opened credentials, where its calls go. */
export interface CarrierAccount {
  db: Db;
  team_id: string;
  id: string;
  name: string;
  /** Opened by the domain (sealed at rest, src/domain/secrets); null when disconnected or none taken. */
  credentials: CarrierCredentials | null;
  /** The integration's api_base_url; null = the platform's real address (defaultBaseUrl). */
  api_base_url: string | null;
  /** Carrier ids kept from its rates; null = all. */
  enabled_carriers: string[] | null;
  is_test: boolean;
  policy: OutboundPolicy;
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

/** One delivery to POST /v1/carriers/{integration_id}/webhooks, as received (raw body). */
export interface CarrierDelivery {
  body: string;
  headers: WebhookHeaders;
  /** A URL token (?shippo_token=) for a platform that cannot sign. */
  token?: string;
}

export interface CarrierWebhooks {
  /** The delivery is the platform's, for the integration's webhook secret (constant time). */
  verify(secret: string, delivery: CarrierDelivery): boolean;
  /** What a verified delivery's JSON body says (tracker events, a refund's outcome). */
  parse(body: unknown): TrackerUpdate;
}

export interface CarrierConnector {
  /** The carrier integration type it serves (INTEGRATION_TYPES, src/contract/enums.ts). */
  readonly type: string;
  /** The platform's name in messages. */
  readonly label: string;
  /** Where its calls go unless the integration sets api_base_url; null: it calls nothing. */
  readonly defaultBaseUrl: string | null;
  /** The credentials it needs; none: an offline carrier (no key, no base URL, no webhooks). */
  readonly credentialFields: readonly (keyof CarrierCredentials)[];
  /** Its labels are test labels no carrier accepts (banner on the label, never pushed to a shop). */
  readonly testLabels: boolean;
  /** The key is a test-mode key (free labels that do not ship): the integration's is_test. */
  isTestKey(apiKey: string | undefined): boolean;
  /** The adapter of one integration: rate, buy, reconcile, refund (void). */
  open(account: CarrierAccount): CarrierAdapter;
  /** `fos carriers test`: one real, free call; the message shown, or a DomainError (409) naming the cause. */
  test(account: CarrierAccount): Promise<string>;
  /** Verifies a shipping address (delivery, ZIP+4). Absent: the carrier verifies none. */
  verifyAddress?(account: CarrierAccount, address: Address): Promise<AddressCheck>;
  /** Tracker and refund events. Absent: the carrier sends none (the webhook route answers 404). */
  readonly webhooks?: CarrierWebhooks;
}
