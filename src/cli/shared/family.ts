import type { Command } from 'commander';
import type { Context } from '../context.js';

// The API family a key calls (spec 1: /ops for fulfiller teams, /merchant for merchant teams). A
// command whose records both families show (invoices, charges) picks its paths by the key: a
// merchant's accountant runs `fos invoices list` as the 3PL does. Found with one GET /me a run.

export type Family = 'ops' | 'merchant';

const families = new WeakMap<Context, Promise<Family>>();

/** The family of the key this run calls with ('merchant' for a merchant team's key). */
export function familyOf(ctx: Context): Promise<Family> {
  let found = families.get(ctx);
  if (!found) {
    found = ctx
      .client()
      .get<{ team_kind?: string }>('/me')
      .then((me) => (me?.team_kind === 'MERCHANT' ? 'merchant' : 'ops'));
    families.set(ctx, found);
  }
  return found;
}

/** The path of `resource` in the family withKeyFamily put in `opts`: `/merchant/invoices` or `/ops/invoices`. */
export const familyPath = (opts: Record<string, unknown>, resource: string) =>
  `/${opts.family === 'merchant' ? 'merchant' : 'ops'}/${resource}`;

/** Before the command runs, its options get `family` (its path functions read `opts.family`). */
export function withKeyFamily(ctx: Context, cmd: Command): Command {
  return cmd.hook('preAction', async (_cmd, action) => {
    action.setOptionValue('family', await familyOf(ctx));
  });
}
