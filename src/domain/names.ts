// The names area (src/domain/names/) by its old path: the areas that name records in refusals
// import '../names.js'; pointing them at the door (./names/index.js) retires this file.
export { capital, namedFulfillmentOrder, refusalNames, teamNames, type RefusalIds, type RefusalNames } from './names/index.js';
