import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { FILE_CREATE_FIELDS } from './fields.js';
import { response } from '../../output/shape.js';

export default function filesCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/files.js')).FileSchema),
    name: 'create',
    description: 'Register a file kept elsewhere, by URL (to store the bytes here: fos files upload)',
    method: 'POST',
    mode: 'create',
    path: () => '/ops/files',
    fields: FILE_CREATE_FIELDS,
    examples: ['fos files create --name packing-guide.pdf --url https://files.example/guide.pdf --mimetype application/pdf --size 48213'],
  });
}
