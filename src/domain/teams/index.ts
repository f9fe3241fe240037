// The teams area's door: what code outside src/domain/teams/ may import (test/unit/layers.test.ts).
export { delegationView, listDelegations } from './delegations.js';
export * as teams from './teams.js';
export { createDelegation, createTeam, createWarehouse, unitsOf, type MeasurementSystem } from './teams.js';
export { countTeams, insertTeam } from './store.js';
