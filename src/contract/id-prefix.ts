import { Type } from 'typebox';

// `id_prefix`: the records whose id starts with these characters. The CLI shows ids as their
// shortest prefix unique within a table (as git shortens hashes) and resolves a prefix typed
// back through this filter (two records answer: ambiguous). Ids are UUIDv7: records created in
// the same millisecond share their first 12 hex digits, so a prefix may need 13 or more.
export const idPrefixQuery = {
  id_prefix: Type.Optional(
    Type.String({
      minLength: 4,
      maxLength: 36,
      pattern: '^[0-9a-fA-F-]+$',
      description: 'only records whose id starts with these characters (hex digits and dashes, at least 4)',
    }),
  ),
};
