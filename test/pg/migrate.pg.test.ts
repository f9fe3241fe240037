import { migrateCases } from '../helpers/migrate-cases.js';

migrateCases('postgresql');
