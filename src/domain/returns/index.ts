// The returns area's door: what code outside src/domain/returns/ may import (test/unit/layers.test.ts).
export { cancelReturn, createReturn, receiveReturn } from './returns.js';
export { getReturn, listReturns } from './view.js';
