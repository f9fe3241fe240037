// The users area's door: what code outside src/domain/users/ may import (test/unit/layers.test.ts).
export {
  SESSION_TTL_MS,
  checkCredentials,
  currentAccess,
  membershipsInclude,
  sessionUser,
  signIn,
  signOut,
  teamAccess,
  teamPermissions,
  type SessionUser,
} from './sessions.js';
export * as users from './users.js';
export { createUser } from './users.js';
