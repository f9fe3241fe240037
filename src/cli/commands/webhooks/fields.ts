import { ENUMS } from '../../enums.js';
import type { FieldSpec } from '../../shared/flags.js';
import { resourcePath } from '../../shared/resource.js';

export const WEBHOOK_FIELDS: FieldSpec[] = [
  { key: 'url', description: 'http(s) endpoint receiving the events', required: true },
  {
    key: 'events',
    flag: '--event',
    arg: 'kind,…',
    type: 'list',
    values: ENUMS.webhook_event,
    required: true,
    description: 'event kinds to deliver, or * (comma-separated or repeated)',
  },
  { key: 'description', description: 'free text' },
];

export const webhookPath = (id?: string, sub?: string) => resourcePath('/webhooks', id, sub);
