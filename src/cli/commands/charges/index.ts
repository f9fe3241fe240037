import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import add from './add.js';
import createReceiving from './create-receiving.js';
import createStorage from './create-storage.js';
import get from './get.js';
import list from './list.js';
import updateReceiving from './update-receiving.js';

export default (ctx: Context) =>
  group('charges', 'Charges billed to merchants (fees of the rate card, ad-hoc work)', [
    list(ctx),
    get(ctx),
    createStorage(ctx),
    createReceiving(ctx),
    updateReceiving(ctx),
    add(ctx),
  ]);
