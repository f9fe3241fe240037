// BigCommerce connection credentials, sealed like every connector's (secret-box).

export interface BigCommerceCredentials {
  /** The store API account's access token (X-Auth-Token). */
  access_token: string;
  /** Sent back by BigCommerce in X-Fos-Webhook-Secret on the order hooks fos registered. */
  webhook_secret: string;
}

/** The header fos sets on the hooks it registers; a delivery without the shop's secret in it is refused. */
export const SECRET_HEADER = 'x-fos-webhook-secret';

/** V2 order status ids (docs: Orders V2, order statuses). */
export const STATUS = {
  INCOMPLETE: 0,
  PENDING: 1,
  SHIPPED: 2,
  PARTIALLY_SHIPPED: 3,
  REFUNDED: 4,
  CANCELLED: 5,
  DECLINED: 6,
  AWAITING_PAYMENT: 7,
  AWAITING_PICKUP: 8,
  AWAITING_SHIPMENT: 9,
  COMPLETED: 10,
  AWAITING_FULFILLMENT: 11,
  MANUAL_VERIFICATION_REQUIRED: 12,
  DISPUTED: 13,
  PARTIALLY_REFUNDED: 14,
} as const;
