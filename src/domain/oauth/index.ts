// The oauth area's door: what code outside src/domain/oauth/ may import (test/unit/layers.test.ts).
export * as authorizations from './authorizations.js';
export { CONNECTION_NAME_MAX, type PendingAuthorization } from './authorizations.js';
export * as clients from './clients.js';
export { redirectUriProblem } from './clients.js';
export * as connections from './connections.js';
export { connectionsForPerson, revokeConnection } from './connections.js';
export {
  CONNECTION_PERMISSIONS,
  PRESETS,
  PRESET_DESCRIPTIONS,
  PRESET_LABELS,
  grantable,
  presetPermissions,
  type Preset,
} from './presets.js';
export {
  accessTokenPrincipal,
  isAccessToken,
  issueTokens,
  revokeByToken,
  revokeConnectionTokens,
  rotateRefreshToken,
  type TokenSet,
} from './tokens.js';
