// The keys area's door: what code outside src/domain/keys/ may import (test/unit/layers.test.ts).
export * as keys from './keys.js';
export { assertMemberLimits, createKey, disableKey, findKeyTeam, listKeys, setKeyTier, type Actor } from './keys.js';
export { PrincipalResolver, type AccessTokens, type Principal } from './principal.js';
export * as roles from './roles.js';
export { createRole, rolesByName } from './roles.js';
export { generateToken, hashToken, tokenHint } from './token.js';
export { findBootstrapMark, insertBareKey, insertBootstrapMark } from './store.js';
