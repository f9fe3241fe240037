// The vendors area's door: what code outside src/domain/vendors/ may import (test/unit/layers.test.ts).
export * as vendors from './vendors.js';
