// The floor area's door: what code outside src/domain/floor/ may import (test/unit/layers.test.ts).
export { floorRefresh, floorResource, floorSignIn, floorSignOut } from './sign-in.js';
