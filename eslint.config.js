// Lint rules for the whole repository (ESLint flat config). Formatting is Prettier's job (.prettierrc.json);
// these rules are about bugs, import order and function size. Two type-aware rules (promises) cover src/ and the
// Studio: they cost a TypeScript program per project, hence no others (see CONTRIBUTING.md).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

/**
 * `no-unused-expressions`, except that a comma sequence of statements (`if (x) (a(), b());`, a house idiom) is
 * accepted when every part would be a valid statement on its own; `a === b;` and `obj.method;` are still errors.
 */
const STATEMENT_LIKE = new Set([
  'CallExpression',
  'AssignmentExpression',
  'UpdateExpression',
  'AwaitExpression',
  'NewExpression',
  'YieldExpression',
]);
const isStatementLike = (node) =>
  STATEMENT_LIKE.has(node.type) ||
  (node.type === 'ChainExpression' && node.expression.type === 'CallExpression') ||
  (node.type === 'UnaryExpression' && node.operator === 'void') ||
  (node.type === 'SequenceExpression' && node.expressions.every(isStatementLike));
const baseUnusedExpressions = tseslint.plugin.rules['no-unused-expressions'];
const noUnusedExpressions = {
  ...baseUnusedExpressions,
  create(context) {
    const listeners = baseUnusedExpressions.create(context);
    return {
      ...listeners,
      ExpressionStatement(node) {
        if (node.expression.type === 'SequenceExpression' && isStatementLike(node.expression)) return;
        listeners.ExpressionStatement(node);
      },
    };
  },
};

// Every file runs on Node (src, tests, scripts, benchmarks, examples): its globals are the ones of this Node.
const nodeGlobals = Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((name) => [name, 'readonly']));

export default defineConfig(
  {
    ignores: ['dist/', 'coverage/', '.corvid/', '**/node_modules/', 'bench/results/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: nodeGlobals },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'simple-import-sort': simpleImportSort, corvid: { rules: { 'no-unused-expressions': noUnusedExpressions } } },
    rules: {
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      // `_name` marks a parameter or binding kept on purpose; `{ secret: _secret, ...rest }` drops a field.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // `x && f()`, `cond ? resolve() : reject(e)` and `if (x) (a(), b());` are house style (see above).
      '@typescript-eslint/no-unused-expressions': 'off',
      'corvid/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // `let x` read by a closure before its one assignment, and `let { a, b }` where only `a` changes, stay `let`.
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
      // `catch {}` is how optional clean-up and best-effort parsing say "ignore".
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Functions under ~80 lines (house rule). A longer one says why:
    // `// eslint-disable-next-line max-lines-per-function -- <reason>`. CI caps the warning count (package.json).
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['warn', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The Studio (studio/) runs in browsers: their globals besides the ones Node shares with them.
    files: ['studio/**/*.{ts,tsx}'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'history',
          'sessionStorage',
          'localStorage',
          'matchMedia',
          'confirm',
          'navigator',
          'HTMLElement',
        ].map((name) => [name, 'readonly']),
      ),
    },
    rules: {
      'max-lines-per-function': ['warn', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // A promise nobody awaits says so with `void` and handles its rejection: `void work().catch(reportRejection('…'))`
    // (src/core/report-rejection.ts, studio/src/report-rejection.ts) or a handler of its own; an async function is
    // not passed where a callback's result is ignored (an event listener, a timer, a JSX handler).
    files: ['src/**/*.ts', 'studio/src/**/*.{ts,tsx}'],
    // The build's and the Studio's own projects: the root tsconfig would load every test file too (~25% more CPU).
    languageOptions: {
      parserOptions: { project: ['./tsconfig.build.json', './studio/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Tests read JSON answers and poke at internals; `any` there is a convenience, not an API.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Benchmarks drop references on purpose (`keep = null`) so the collector can reclaim them between samples.
    files: ['bench/**'],
    rules: { 'no-useless-assignment': 'off' },
  },
);
