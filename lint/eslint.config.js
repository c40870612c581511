// `make lint-rules` (and the first half of `make lint`): typescript-eslint with type information, run from the
// repository's root as `lint/node_modules/.bin/eslint -c lint/eslint.config.js`. Every rule is an error: the lint
// is clean or CI stops. The project service finds each file's own tsconfig (the engine's, web/'s, sdk/'s).
import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import tseslint from 'typescript-eslint'

const root = dirname(dirname(fileURLToPath(import.meta.url)))

export default defineConfig(
  {
    ignores: ['dist/**', 'sdk/dist/**', 'examples/python-maker/**', 'contracts/**', 'fixtures/**', 'lint/**',
      'test-output/**', '.data/**', '**/*.js', '**/*.mjs', '**/*.cjs'],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [js.configs.recommended, tseslint.configs.eslintRecommended],
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: root } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // promises: none left floating (node:test's test() and describe() are awaited by the runner), none passed
      // where a callback's return is ignored, no await on a non-promise, rejections that are Errors
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [
        { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after',
          'beforeEach', 'afterEach'] },
      ] }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/return-await': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/use-unknown-in-catch-callback-variable': 'error',
      // a switch over a union names every member, default or not: a new code is a compile-time question everywhere
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false }],
      // types that say something: no any, no assertion that changes nothing, no deprecated API
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-deprecated': 'error',
      '@typescript-eslint/restrict-plus-operands': 'error',
      '@typescript-eslint/no-unsafe-enum-comparison': 'error',
      '@typescript-eslint/no-unnecessary-boolean-literal-compare': 'error',
      '@typescript-eslint/no-unnecessary-template-expression': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
      // `_` marks what is unused on purpose (a rest that drops a field, a callback's first argument)
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_',
        caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
      // text checks match control characters on purpose (workers/values/text.ts and its like)
      'no-control-regex': 'off',
    },
  },
  {
    // tests read response bodies as untyped JSON (the helpers' `body: any`): each assertion is the type check
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
)
