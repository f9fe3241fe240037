import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { response } from '../../output/shape.js';

export default function filesList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/files.js')).FileListSchema),
    description: 'List files',
    path: () => '/ops/files',
    query: [
      { key: 'search', description: 'matches file name' },
      { key: 'mimetype', type: 'list', description: 'MIME types, comma-separated' },
      { key: 'min_size', type: 'int', min: 0, arg: 'bytes', description: 'at least this many bytes' },
      { key: 'order_by', type: 'enum', values: ['created_at', 'updated_at', 'name', 'size'], description: 'sort field' },
      { key: 'order', type: 'enum', values: ENUMS.sort_order, description: 'sort direction' },
    ],
    columns: ['id', 'name', 'mimetype', 'size', 'file_category', 'processing_status', 'created_at'],
    examples: ['fos files list --mimetype application/pdf --order-by size --order desc'],
  });
}
