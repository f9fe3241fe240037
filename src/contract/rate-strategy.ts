import { Type, type TNull, type TOptional, type TSchema, type TUnion } from 'typebox';
import { RATE_STRATEGIES, RATE_WITHIN_DAYS_MAX } from './enums.js';
import { Nullable, StringEnum } from './common.js';

// One source for how rates are chosen (docs/automation.md "Rate strategies"): the strategy and
// its two options, taken by rule actions, an order's and a draft's carrier selection, a package,
// a label purchase and a label batch. Applied in src/domain/fulfillment/carrier-rates.ts.

export type RateStrategy = (typeof RATE_STRATEGIES)[number];

export { RATE_WITHIN_DAYS_MAX };

export const RATE_FIELDS = {
  rate_strategy: StringEnum(RATE_STRATEGIES, {
    description:
      'CHEAPEST (then fastest), FASTEST (estimated days, then cheapest) or CHEAPEST_WITHIN_DAYS (the cheapest rate estimated to arrive within rate_within_days)',
  }),
  rate_within_days: Type.Integer({
    minimum: 1,
    maximum: RATE_WITHIN_DAYS_MAX,
    description: 'with CHEAPEST_WITHIN_DAYS: the most estimated transit days a rate may have (a rate without an estimate is left out)',
  }),
  rate_exclude_carrier_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    minItems: 1,
    maxItems: 50,
    uniqueItems: true,
    description: 'rates of these carriers (carrier_id, e.g. usps; case-insensitive) are never chosen, whatever the strategy',
  }),
};
export type RateField = keyof typeof RATE_FIELDS;
export const RATE_FIELD_KEYS = Object.keys(RATE_FIELDS) as RateField[];

/** The rate options of a request or a stored row. */
export interface RateOptions {
  rate_strategy?: RateStrategy | null;
  rate_within_days?: number | null;
  rate_exclude_carrier_ids?: string[] | null;
}

/** Every field optional (a write body's members). */
export const optionalFields = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as unknown as { [K in keyof T]: TOptional<T[K]> };

/** Every field nullable (a response's members). */
export const nullableFields = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Nullable(v)])) as unknown as { [K in keyof T]: TUnion<[T[K], TNull]> };

/** Every field optional and nullable (a write that can clear them). */
export const optionalNullableFields = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(Nullable(v))])) as unknown as {
    [K in keyof T]: TOptional<TUnion<[T[K], TNull]>>;
  };

/** The fields as optional body members (nullable: a write that can clear them). */
export const rateFieldsInput = () => optionalFields(RATE_FIELDS);
export const rateFieldsNullable = () => optionalNullableFields(RATE_FIELDS);

/** The fields as a response shows them (null: not chosen). */
export const rateFieldsOutput = () => nullableFields(RATE_FIELDS);
