// `npm run lint`: ESLint (typescript-eslint's recommended rules, without type information so it
// stays fast) on src, test, scripts and bench, then `prettier --check` (.prettierrc.json).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Node.js's globals for the plain .js/.mjs scripts (the `globals` package is not installed).
const NODE_GLOBALS = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
    'queueMicrotask',
    'structuredClone',
    'fetch',
    'AbortController',
    'AbortSignal',
    'TextEncoder',
    'TextDecoder',
    'performance',
    'WebAssembly',
    'globalThis',
    'global',
    'require',
    'module',
    '__dirname',
    '__filename',
    'crypto',
    'Blob',
    'FormData',
    'Headers',
    'Request',
    'Response',
    'SharedArrayBuffer',
    'Atomics',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/**', 'src/generated/**', 'node_modules/**', '.tmp/**', 'completions/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: NODE_GLOBALS },
    rules: {
      // `_`-prefixed names and rest siblings say "deliberately unused" (omitting a field by destructuring).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `<E extends TProperties = {}>`: an empty object type is the right default for TypeBox properties.
      '@typescript-eslint/no-empty-object-type': ['error', { allowObjectTypes: 'always' }],
      // ANSI escapes and NUL bytes are matched on purpose (terminal output, binary sniffing).
      'no-control-regex': 'off',
    },
  },
  // TypeScript itself reports undefined names, with the real types.
  { files: ['**/*.ts'], rules: { 'no-undef': 'off' } },
  // Tests read untyped JSON responses, use vitest's `({}, use)` fixtures and out-of-range numbers on purpose.
  {
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-empty-pattern': 'off', 'no-loss-of-precision': 'off' },
  },
  // The /floor page's scripts run in the browser (src/server/floor, served as they are).
  {
    files: ['src/server/floor/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'navigator',
          'sessionStorage',
          'localStorage',
          'fetch',
          'crypto',
          'requestAnimationFrame',
          'setInterval',
          'console',
          'URL',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
