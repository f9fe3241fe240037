// Routes served to both key families (`/v1/ops/…` and `/v1/merchant/…`) take one operationId per
// family: the merchant's is the ops name prefixed, so the OpenAPI document keeps them apart.

export type Family = 'ops' | 'merchant';

/** `createShop` for ops, `merchantCreateShop` for merchant. */
export const familyOperationId = (family: Family, name: string) =>
  family === 'ops' ? name : `merchant${name[0]!.toUpperCase()}${name.slice(1)}`;
