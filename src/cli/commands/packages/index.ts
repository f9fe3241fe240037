import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import create from './create.js';
import { packagesGetLabel, packagesSlip } from './documents.js';
import fulfill from './fulfill.js';
import get from './get.js';
import label from './label.js';
import list from './list.js';
import update from './update.js';
import track from './track.js';
import voidLabel from './void-label.js';

export default (ctx: Context) =>
  group('packages', 'Packages: create, label, print a label or packing slip, void a label, track, fulfill', [
    list(ctx),
    get(ctx),
    create(ctx),
    update(ctx),
    label(ctx),
    packagesGetLabel(ctx),
    packagesSlip(ctx),
    voidLabel(ctx),
    track(ctx),
    fulfill(ctx),
  ]);
