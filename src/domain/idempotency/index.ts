// The idempotency area's door: what code outside src/domain/idempotency/ may import (test/unit/layers.test.ts).
export { keyScope, once, sweepOldAnswers, type Answer } from './idempotency.js';
