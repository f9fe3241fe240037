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
  {
    key: 'test',
    type: 'boolean',
    description: "a test endpoint: receives test labels' tracking numbers and URLs (others get them null, with test_label: true)",
  },
];

export const webhookPath = (id?: string, sub?: string) => resourcePath('/webhooks', id, sub);
