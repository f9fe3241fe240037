import { upgradeCases } from '../helpers/upgrade-cases.js';

// The upgrade of a previous release's SQLite database (test/helpers/upgrade-cases.ts).
upgradeCases('sqlite');
