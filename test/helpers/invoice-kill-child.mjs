// Child process of test/api/invoices-kill.test.ts: runs the period close on the database at
// argv[2] and kills itself with SIGKILL right after an invoice's charges were claimed, inside
// the generating transaction (nothing committed yet): a kill -9 mid-generation, at a known point.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = (p) => import(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../dist', p));
const { createDb } = await dist('db/client.js');
const { closeDuePeriods, generationHooks } = await dist('domain/invoices/generate.js');
const db = await createDb(process.argv[2]);
generationHooks.afterClaim = () => process.kill(process.pid, 'SIGKILL');
await closeDuePeriods(db, new Date(process.argv[3]));
console.error('the close finished without generating anything');
process.exit(3);
