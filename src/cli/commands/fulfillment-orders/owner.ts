import { hostname, userInfo } from 'node:os';
import type { Env } from '../../config.js';

/**
 * Default lock owner for lock/release/fulfill: $FOS_LOCK_OWNER, else `<user>@<host>`.
 * `fulfill run` (later) uses the same default so one operator's commands agree.
 */
export function defaultLockOwner(env: Env): string {
  if (env.FOS_LOCK_OWNER) return env.FOS_LOCK_OWNER;
  let user = env.USER ?? env.USERNAME ?? 'fos';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (containers): keep the environment's name
  }
  return `${user}@${hostname()}`;
}
