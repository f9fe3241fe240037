// The orders area's door: what code outside src/domain/orders/ may import (test/unit/layers.test.ts).
import { stockFreed } from '../inventory/index.js';
import { fillBackorders } from './backorders.js';
export { ADDRESS_FIELDS, asAddress, normalizeAddress, verifyAddress, type Address } from './address.js';
export { commitUpTo } from './allocation.js';
export { listBackorders } from './backorders.js';
export { convertDraftOrder } from './convert.js';
export { createDraftOrder, getDraftOrder, listDraftOrders, type DraftOrderInput, type DraftPayload } from './drafts.js';
export { editOrder, type OrderEdit } from './edit.js';
export { activeLock, lockHeld } from './fo-lock.js';
export { intakeRules, type IntakeDecision, type IntakeRules } from './intake-rules.js';
export { assertPackageNotHeld, listOrderHolds, placeOrderHold, releaseOrderHold } from './hold-actions.js';
export { NO_ACTIVE_HOLD, assertNoActiveHold, placeHold } from './holds.js';
export { changeOrderPriority, getOrder, listOrders, markPaid, type OrderListQuery } from './orders.js';
export { allocatePending } from './pending.js';
export { planOrder, writeOrder, type SoldLine } from './place.js';
export { resolveMerchant, resolveShop, slugify } from './reach.js';
export { lockOpenFulfillmentOrders, lockOrderLines } from './store/common.js';
export { checkRateOptions, withoutStaleDays } from './rate-options.js';
export { setOrderTags } from './tags.js';

// Subscriptions (src/domain/hooks.ts): what lower areas announce inside their transactions.
stockFreed.subscribe(fillBackorders);
