import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import run from './run.js';

export default (ctx: Context) =>
  group('fulfill', 'Fulfill orders end to end (lock, package, label, fulfill), one or in batches', [run(ctx)]);
