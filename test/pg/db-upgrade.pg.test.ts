import { upgradeCases } from '../helpers/upgrade-cases.js';

// The upgrade of a previous release's PostgreSQL database (test/helpers/upgrade-cases.ts).
upgradeCases('postgresql');
