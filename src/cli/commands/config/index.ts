import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import get from './get.js';
import set from './set.js';

export default (ctx: Context) => group('config', 'Read and change CLI settings', [get(ctx), set(ctx)]);
