// The names area's door: what code outside src/domain/names/ may import (test/unit/layers.test.ts).
export {
  capital,
  locationTypeNames,
  namedFulfillmentOrder,
  refusalNames,
  teamNames,
  warehouseNames,
  type RefusalIds,
  type RefusalNames,
} from './names.js';
