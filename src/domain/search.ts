// Literal, case-insensitive substring search that behaves the same on SQLite and PostgreSQL.
// Prisma's `contains`/`startsWith` become LIKE without escaping on SQLite, and PostgreSQL treats
// a backslash as LIKE's escape. So search columns and terms both carry %, _ and \ as private-use
// characters: a term then matches only as the literal text it is, on both databases.
// No imports: the CLI's enum module loads domain files and must stay light.

const LIKE_SPECIALS: Record<string, string> = { '%': '\uE025', _: '\uE05F', '\\': '\uE05C' };

/** The search form of a text: lower-cased, LIKE specials replaced. Apply to columns and terms alike. */
export const searchKey = (value: string | null | undefined) => (value ?? '').toLowerCase().replace(/[%_\\]/g, (c) => LIKE_SPECIALS[c]);
