import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/types.js';
import { createRole } from '../../domain/keys/index.js';
import { createUser } from '../../domain/users/index.js';

// The demo's person on the floor (`fos serve --demo`, issue 35): a user of the fulfiller team
// who signs in on the /floor page to pick and pack the demo orders. A MEMBER with a "Floor staff"
// role, not an ADMIN: the page is what a picker's account reaches. The password is new at every
// demo start and printed once by `fos serve`; nothing about it is fixed in the code, so a demo
// started on a reachable address (--host 0.0.0.0) has no sign-in anyone could guess.

export const DEMO_FLOOR_EMAIL = 'floor@acme-outdoor.example';

export interface DemoFloorUser {
  email: string;
  password: string;
}

export async function createDemoFloorUser(db: Db, fulfillerTeamId: string): Promise<DemoFloorUser> {
  const role = await createRole(db, fulfillerTeamId, {
    name: 'Floor staff',
    description: 'Picks, packs and counts on the /floor page (demo)',
    permissions: ['READ_ORDERS', 'READ_FULFILLMENTS', 'WRITE_FULFILLMENTS', 'READ_PRODUCTS', 'READ_INVENTORY', 'WRITE_INVENTORY'],
  });
  const password = randomBytes(12).toString('base64url');
  await createUser(
    db,
    {
      email: DEMO_FLOOR_EMAIL,
      display_name: 'Demo Floor',
      password,
      team_id: fulfillerTeamId,
      power_role: 'MEMBER',
      role_ids: [role.id],
    },
    'demo',
  );
  return { email: DEMO_FLOOR_EMAIL, password };
}
