import { Type, type TSchema } from 'typebox';
import { optionalFields, optionalNullableFields, RATE_FIELDS } from './rate-strategy.js';
import { HOLD_REASONS, PRIORITIES, SHOP_TYPES } from './orders-enums.js';
import { Id, IdParams, listOf, Nullable, pageQuery, StringEnum, Timestamp } from './common.js';

// Automation rules (docs/automation.md): an ordered list per fulfiller team; conditions over an
// arriving order, actions on its carrier selection, tags, priority and holds. The condition tree
// is bounded (all/any/not nest CONDITION_DEPTH deep) so the schema stays a plain, non-recursive
// JSON Schema (OpenAPI, agent catalog) and every refusal names its path.

export const CONDITION_DEPTH = 4;
const MAX_LIST = 500;

/** Delivery confirmation levels both platforms take (EasyPost options.delivery_confirmation; Shippo extra.signature_confirmation). */
export const DELIVERY_CONFIRMATIONS = ['NO_SIGNATURE', 'SIGNATURE', 'ADULT_SIGNATURE'] as const;
export const CONTENTS_TYPES = [
  'MERCHANDISE',
  'DOCUMENTS',
  'GIFT',
  'SAMPLE',
  'RETURN_MERCHANDISE',
  'HUMANITARIAN_DONATION',
  'OTHER',
] as const;
export const INCOTERMS = ['DDP', 'DDU', 'DAP', 'FCA', 'EDAP'] as const;

const strings = (description: string) =>
  Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: MAX_LIST, description }));
const range = (description: string) =>
  Type.Optional(
    Type.Object(
      { gte: Type.Optional(Type.Number({ minimum: 0 })), lte: Type.Optional(Type.Number({ minimum: 0 })) },
      { additionalProperties: false, minProperties: 1, description },
    ),
  );

/** Leaf tests; several in one node must all hold. */
export const CONDITION_LEAVES = {
  merchant_team_id: strings("the order's merchant is one of these teams"),
  shop_id: strings('the order came from one of these shops'),
  shop_type: Type.Optional(Type.Array(StringEnum(SHOP_TYPES), { minItems: 1, description: "the order's shop is of one of these types" })),
  tags_any: strings('the order has at least one of these tags'),
  tags_all: strings('the order has every one of these tags'),
  tags_none: strings('the order has none of these tags'),
  country: strings('destination country (ISO 3166-1 alpha-2), one of these'),
  state: strings('destination state or province code, one of these'),
  zip_prefix: strings('destination postal code starts with one of these'),
  weight: range('total weight of the order lines, in grams (products without a weight count 0)'),
  item_count: range('units on the order (core lines)'),
  line_count: range('distinct products on the order'),
  order_total: range('total_price of the order'),
  skus_any: strings('at least one of these SKUs is on the order'),
  skus_all: strings('every one of these SKUs is on the order'),
  skus_only: strings('every SKU on the order is one of these'),
  shipping_method: strings('the requested shipping method equals one of these (case-insensitive)'),
  priority: Type.Optional(Type.Array(StringEnum(PRIORITIES), { minItems: 1, description: "the order's priority is one of these" })),
  residential: Type.Optional(
    Type.Boolean({
      description:
        'true: the address verification found the address residential (address_residential RESIDENTIAL); false: it did not (UNKNOWN)',
    }),
  ),
  longest_side: range('the longest side of any unit on the order, in millimetres (products without dimensions count 0)'),
  volume: range('the summed volume of the units on the order, in cubic centimetres (products without dimensions count 0)'),
  deliver_by: Type.Optional(
    Type.Object(
      {
        present: Type.Optional(Type.Boolean({ description: 'the order has (true) or has no (false) deliver_by date' })),
        within_hours: Type.Optional(
          Type.Number({ minimum: 0, maximum: 100_000, description: 'deliver_by is at most this many hours from now (overdue included)' }),
        ),
        after_hours: Type.Optional(
          Type.Number({ minimum: 0, maximum: 100_000, description: 'deliver_by is more than this many hours from now' }),
        ),
      },
      { additionalProperties: false, minProperties: 1, description: "the order's deliver_by date relative to the time the rules run" },
    ),
  ),
};
export type ConditionLeafKey = keyof typeof CONDITION_LEAVES;

function conditionNode(depth: number): TSchema {
  const nested: Record<string, TSchema> =
    depth === 0
      ? {}
      : {
          all: Type.Optional(Type.Array(conditionNode(depth - 1), { minItems: 1, maxItems: 100, description: 'every one holds' })),
          any: Type.Optional(Type.Array(conditionNode(depth - 1), { minItems: 1, maxItems: 100, description: 'at least one holds' })),
          not: Type.Optional(conditionNode(depth - 1)),
        };
  return Type.Object({ ...nested, ...CONDITION_LEAVES }, { additionalProperties: false });
}

/** The condition tree: an empty object matches every order. */
export const ConditionSchema = conditionNode(CONDITION_DEPTH);

export interface Condition {
  all?: Condition[];
  any?: Condition[];
  not?: Condition;
  merchant_team_id?: string[];
  shop_id?: string[];
  shop_type?: string[];
  tags_any?: string[];
  tags_all?: string[];
  tags_none?: string[];
  country?: string[];
  state?: string[];
  zip_prefix?: string[];
  weight?: { gte?: number; lte?: number };
  item_count?: { gte?: number; lte?: number };
  line_count?: { gte?: number; lte?: number };
  order_total?: { gte?: number; lte?: number };
  skus_any?: string[];
  skus_all?: string[];
  skus_only?: string[];
  shipping_method?: string[];
  priority?: string[];
  residential?: boolean;
  longest_side?: { gte?: number; lte?: number };
  volume?: { gte?: number; lte?: number };
  deliver_by?: { present?: boolean; within_hours?: number; after_hours?: number };
}

const text = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 200, description }));
const tagList = (description: string) =>
  Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 50, description }));

/**
 * The carrier selection (spec 2.6 order fields, plus the rate strategy and its options): what a
 * rule action sets, a person sets on an order (PATCH) or a draft order, and packages inherit.
 */
export const SELECTION_FIELDS = {
  carrier_integration_id: Type.String({
    minLength: 1,
    maxLength: 200,
    description: "one of the team's carrier integrations (checked when written)",
  }),
  carrier_id: Type.String({ minLength: 1, maxLength: 200, description: 'carrier, e.g. usps' }),
  service_id: Type.String({ minLength: 1, maxLength: 200, description: 'service, e.g. usps_ground_advantage' }),
  ...RATE_FIELDS,
  package_preset_id: Type.String({ minLength: 1, maxLength: 200, description: 'package preset' }),
  package_preset_name: Type.String({ minLength: 1, maxLength: 200, description: 'package preset name' }),
  carton_id: Type.String({ minLength: 1, maxLength: 200, description: 'carton' }),
  carton_name: Type.String({ minLength: 1, maxLength: 200, description: 'carton name' }),
};
export type SelectionField = keyof typeof SELECTION_FIELDS;
export const SELECTION_ACTIONS = Object.keys(SELECTION_FIELDS) as SelectionField[];
export type SelectionValue = string | number | string[];

/** The selection fields as optional body members (nullable: null clears a person's choice). */
export const selectionInput = () => optionalFields(SELECTION_FIELDS);
export const selectionNullable = () => optionalNullableFields(SELECTION_FIELDS);

export const ActionsSchema = Type.Object(
  {
    ...selectionInput(),
    add_tags: tagList('tags added to the order'),
    remove_tags: tagList('tags removed from the order'),
    priority: Type.Optional(StringEnum(PRIORITIES)),
    hold: Type.Optional(
      Type.Object(
        { reason: StringEnum(HOLD_REASONS), notes: Type.Optional(Type.String({ maxLength: 500 })) },
        { additionalProperties: false, description: 'put the order on hold' },
      ),
    ),
    stop: Type.Optional(Type.Boolean({ description: 'no later rule is evaluated for this order' })),
    warehouse_id: text('route the order to this warehouse of the team (checked when the rule is written): allocation takes from it first'),
    warehouse_only: Type.Optional(
      Type.Boolean({ description: 'with warehouse_id: allocate from that warehouse only (what it lacks waits for its stock)' }),
    ),
    delivery_confirmation: Type.Optional(StringEnum(DELIVERY_CONFIRMATIONS, { description: "the order's config.delivery_confirmation" })),
    insurance_amount: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1_000_000,
        description: 'insure each package for this amount (config.insurance_policy)',
      }),
    ),
    customs: Type.Optional(
      Type.Object(
        {
          contents_type: Type.Optional(StringEnum(CONTENTS_TYPES)),
          contents_explanation: text('why, when contents_type is OTHER'),
          incoterm: Type.Optional(StringEnum(INCOTERMS)),
          incoterm_location: text('named place of the incoterm'),
          non_delivery_option: Type.Optional(StringEnum(['RETURN', 'ABANDON'] as const)),
          eel_pfc: text('e.g. NOEEI 30.37(a)'),
          restriction_type: Type.Optional(StringEnum(['NONE', 'OTHER', 'QUARANTINE', 'SANITARY_PHYTOSANITARY_INSPECTION'] as const)),
          restriction_comments: text('required by restriction_type OTHER'),
          customs_signer: text('who signs the customs declaration'),
          customs_certify: Type.Optional(Type.Boolean()),
          commercial_invoice_transaction_reason: text('e.g. SALE, GIFT, SAMPLE'),
        },
        {
          additionalProperties: false,
          minProperties: 1,
          description: "the order's customs config (international packages send it to the carrier platform)",
        },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** The order config keys rules write (config actions: delivery_confirmation, insurance_amount, customs.*). */
export const CONFIG_ACTION_KEYS = [
  'delivery_confirmation',
  'insurance_policy',
  'contents_type',
  'contents_explanation',
  'incoterm',
  'incoterm_location',
  'non_delivery_option',
  'eel_pfc',
  'restriction_type',
  'restriction_comments',
  'customs_signer',
  'customs_certify',
  'commercial_invoice_transaction_reason',
] as const;
export type ConfigActionKey = (typeof CONFIG_ACTION_KEYS)[number];

export interface Actions {
  carrier_integration_id?: string;
  carrier_id?: string;
  service_id?: string;
  rate_strategy?: string;
  rate_within_days?: number;
  rate_exclude_carrier_ids?: string[];
  package_preset_id?: string;
  package_preset_name?: string;
  carton_id?: string;
  carton_name?: string;
  add_tags?: string[];
  remove_tags?: string[];
  priority?: string;
  hold?: { reason: string; notes?: string };
  stop?: boolean;
  warehouse_id?: string;
  warehouse_only?: boolean;
  delivery_confirmation?: string;
  insurance_amount?: number;
  customs?: Partial<Record<Exclude<ConfigActionKey, 'delivery_confirmation' | 'insurance_policy'>, string | boolean>>;
}

const ruleFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  position: Type.Optional(Type.Integer({ minimum: 1, description: 'place in the list, 1 = first; default: last' })),
  merchant_team_id: Type.Optional(Nullable(Id)),
  conditions: ConditionSchema,
  actions: ActionsSchema,
};

export const CreateRuleBody = Type.Object(ruleFields, { additionalProperties: false });
export const UpdateRuleBody = Type.Object(
  {
    name: Type.Optional(ruleFields.name),
    enabled: ruleFields.enabled,
    position: ruleFields.position,
    merchant_team_id: ruleFields.merchant_team_id,
    conditions: Type.Optional(ConditionSchema),
    actions: Type.Optional(ActionsSchema),
    version: Type.Optional(Type.Integer({ minimum: 1, description: 'compare-and-set: refused (409) unless the rule is at this version' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const RuleSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  enabled: Type.Boolean(),
  position: Type.Integer(),
  merchant_team_id: Nullable(Type.String()),
  conditions: ConditionSchema,
  actions: ActionsSchema,
  version: Type.Integer({ description: 'bumped by every update' }),
  fulfiller_team_id: Type.String(),
  created_by_key_id: Nullable(Type.String()),
  updated_by_key_id: Nullable(Type.String({ description: 'the API key of the last change' })),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const RuleListSchema = listOf(RuleSchema);

/** A rule as one version of it stood (history rows' before/after). */
export const RuleSnapshotSchema = Type.Object({
  name: Type.String(),
  enabled: Type.Boolean(),
  position: Type.Integer(),
  merchant_team_id: Nullable(Type.String()),
  conditions: ConditionSchema,
  actions: ActionsSchema,
  version: Type.Integer(),
});
export const RuleVersionSchema = Type.Object({
  id: Type.String(),
  rule_id: Type.String(),
  version: Type.Integer({ description: 'the rule version the change produced (a delete: the version deleted)' }),
  change: StringEnum(['CREATED', 'UPDATED', 'DELETED'] as const),
  key_id: Nullable(Type.String({ description: 'the API key that made the change' })),
  key_name: Nullable(Type.String()),
  before: Nullable(RuleSnapshotSchema),
  after: Nullable(RuleSnapshotSchema),
  created_at: Timestamp,
});
export const RuleVersionListSchema = listOf(RuleVersionSchema);
export const RuleVersionQuery = Type.Object({ ...pageQuery({ defaultLimit: 20 }) }, { additionalProperties: false });
export const RuleListQuery = Type.Object(
  { ...pageQuery({ defaultLimit: 100 }), merchant_team_id: Type.Optional(Id) },
  { additionalProperties: false },
);
export const RuleParams = IdParams('automation_rule_id');

/** One rule's decision on one order. */
export const DecisionSchema = Type.Object({
  rule_id: Type.String(),
  rule_name: Type.String(),
  version: Type.Integer(),
  set: Type.Record(Type.String(), Type.Unknown(), { description: 'what it set: field -> value (tags: add_tags/remove_tags, hold)' }),
  kept: Type.Array(Type.String(), { description: 'fields it would have set, kept as a person chose them' }),
  stopped: Type.Boolean(),
});
export const TraceSchema = Type.Object(
  {
    applied_at: Timestamp,
    trigger: StringEnum(['INTAKE', 'MANUAL'] as const),
    decisions: Type.Array(DecisionSchema),
  },
  { description: 'extension: what automation rules decided for this order (docs/automation.md)' },
);

export const TestRulesBody = Type.Object(
  {
    order_id: Type.Optional(Id),
    order: Type.Optional(
      Type.Object(
        {
          merchant_team_id: Type.Optional(Id),
          shop_id: Type.Optional(Id),
          shop_type: Type.Optional(StringEnum(SHOP_TYPES)),
          tags: Type.Optional(Type.Array(Type.String())),
          shipping_address: Type.Optional(
            Type.Object({ country: Type.Optional(Type.String()), state: Type.Optional(Type.String()), zip: Type.Optional(Type.String()) }),
          ),
          total_price: Type.Optional(Type.Number()),
          shipping_method: Type.Optional(Type.String()),
          priority: Type.Optional(StringEnum(PRIORITIES)),
          address_residential: Type.Optional(StringEnum(['UNKNOWN', 'RESIDENTIAL'] as const)),
          deliver_by: Type.Optional(Type.String({ format: 'date-time' })),
          line_items: Type.Optional(
            Type.Array(
              Type.Object(
                {
                  sku: Type.String(),
                  quantity: Type.Integer({ minimum: 1 }),
                  weight: Type.Optional(Type.Number({ minimum: 0, description: 'grams per unit' })),
                  length: Type.Optional(Type.Number({ minimum: 0, description: 'mm per unit' })),
                  width: Type.Optional(Type.Number({ minimum: 0, description: 'mm per unit' })),
                  height: Type.Optional(Type.Number({ minimum: 0, description: 'mm per unit' })),
                },
                { additionalProperties: false },
              ),
            ),
          ),
        },
        { additionalProperties: false, description: 'a hypothetical order' },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export const TestRulesResponse = Type.Object({
  decisions: Type.Array(DecisionSchema),
  result: Type.Record(Type.String(), Type.Unknown(), { description: 'the fields the order would end with' }),
});

export const ApplyRulesBody = Type.Object(
  { all_open: Type.Optional(Type.Boolean({ description: 'every open order of the team (POST /v1/ops/automation-rules/apply)' })) },
  { additionalProperties: false },
);
export const ApplyAllResponse = Type.Object({ orders: Type.Integer(), changed: Type.Integer() });
