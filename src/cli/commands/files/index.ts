import type { Context } from '../../context.js';
import { group, resourcePath, writeCommand } from '../../shared/resource.js';
import create from './create.js';
import get from './get.js';
import list from './list.js';
import { filesDownload, filesUpload } from './transfer.js';
import update from './update.js';
import { none } from '../../output/shape.js';

export default (ctx: Context) =>
  group('files', 'Files (documents, images): upload, download, register by URL', [
    list(ctx),
    get(ctx),
    filesUpload(ctx),
    filesDownload(ctx),
    create(ctx),
    update(ctx),
    writeCommand(ctx, {
      output: none('answers 204: prints no record'),
      name: 'delete',
      description: 'Delete a file and its stored bytes',
      method: 'DELETE',
      mode: 'action',
      args: ['<file-id>'],
      path: ([id]) => resourcePath('/ops/files', id),
      confirm: (_, what) => `Delete file ${what} and its bytes?`,
      lookup: { path: ([id]) => resourcePath('/ops/files', id), label: (f) => f.name },
      done: ([id]) => `deleted file ${id}`,
      examples: ['fos files delete 0193… --yes'],
    }),
  ]);
