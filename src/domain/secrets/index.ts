// The secrets area's door: what code outside src/domain/secrets/ may import (test/unit/layers.test.ts).
export { SecretKeyError, keyFromFile, openJson, parseSecretKey, sealJson, setSecretKey } from './secret-box.js';
