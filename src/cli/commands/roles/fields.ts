import { ENUMS } from '../../enums.js';
import type { FieldSpec } from '../../shared/flags.js';

export const ROLE_FIELDS: FieldSpec[] = [
  { key: 'name', description: 'role name (unique in the team)', required: true },
  { key: 'description', description: 'what the role is for' },
  {
    key: 'permissions',
    flag: '--permission',
    arg: 'P,…',
    type: 'list',
    values: ENUMS.permission,
    required: true,
    description: 'permissions granted (comma-separated or repeated; update replaces the set)',
  },
];
