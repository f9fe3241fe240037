import type { Argument, Option } from 'commander';

/**
 * Values the completion scripts ask `fos __complete <kind>` for at completion time (values that
 * live in the user's config, not in the command tree). Kept apart from completion.ts so command
 * builders can mark options without loading the generator.
 */
export const DYNAMIC_KINDS = ['profiles'] as const;
export type DynamicKind = (typeof DYNAMIC_KINDS)[number];

const HINT = Symbol.for('fos.completion');

export function completeWith<T extends Option | Argument>(target: T, kind: DynamicKind): T {
  (target as unknown as Record<symbol, DynamicKind>)[HINT] = kind;
  return target;
}

export function completionKind(target: Option | Argument): DynamicKind | undefined {
  return (target as unknown as Record<symbol, DynamicKind | undefined>)[HINT];
}

/** Options whose value is a file or path complete file names; other values never do. */
export function takesFile(option: Option): boolean {
  return /<[^>]*\b(file|path|dir)\b[^>]*>/.test(option.flags) || /^--db\b/.test(option.long ?? '');
}
