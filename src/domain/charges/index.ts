// The charges area's door: what code outside src/domain/charges/ may import (test/unit/layers.test.ts).
export { billEvents, chargeRow, delegationOf, insertBilled, priceBillable, type Billable } from './billing.js';
export { chargeBillingWhere, getMerchantCharge, listMerchantCharges, type ChargeBillingFilters } from './charge-filters.js';
export {
  announceCharge,
  billReceipt,
  createReceivingCharge,
  createStorageCharge,
  getCharge,
  jsonPricing,
  listCharges,
  updateReceivingCharge,
} from './charges.js';
export { versionedCorrection } from './corrections.js';
export { setRateCard, type RateCardInput } from './delegation-card.js';
export { addAdHocCharge, billWorkOrder } from './event-billing.js';
export { priceStorage } from './pricing.js';
export { chargePayload, chargeView } from './pricing-record.js';
export {
  INVOICE_PERIODS,
  addDays,
  day,
  dayStart,
  isDay,
  nextPeriodFrom,
  periodEndsAt,
  periodOf,
  type InvoicePeriod,
  type Period,
} from './periods.js';
export {
  parseRateCard,
  priceJsonCardStorage,
  priceShippingCorrection,
  roundMoney,
  validateRateCard,
  type Pricing,
  type RateCard,
} from './rate-card.js';
export { billShipping, shippingRateCard } from './shipping.js';
export { insertCharge } from './store/statements.js';
export { getRateCard, getVersion, linkDelegation, listRateCards, publishVersion, testRateCard, versionAt } from './versions.js';
