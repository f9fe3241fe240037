// The CSV writer is shared with the server's exports (GET …/export?format=csv).
export { csvCell, csvLine } from '../../shared/csv.js';
