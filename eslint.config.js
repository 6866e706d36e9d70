// @ts-check
import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'coverage/**', 'test-results/**', 'dist/**', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        ...[
          "CallExpression[callee.object.name='z'][callee.property.name='email']",
          "CallExpression[callee.object.type='CallExpression'][callee.property.name='email']",
          "ImportDeclaration[source.value=/^zod/] > ImportSpecifier[imported.name='email']",
        ].map((selector) => ({
          selector,
          message:
            "zod's email check is a regular expression reported to backtrack on hostile input: use isAccountEmail or isPublicEmail from @directory/domain (length-bounded, linear).",
        })),
      ],
    },
  },
  // Regular expressions: the plugin's checks for mistakes, and above all no pattern whose time can grow
  // faster than its input. A backtracking regex once let one If-None-Match header hold a core for
  // seconds; these two rules prove linearity for every literal pattern (a `new RegExp` built from a
  // string is out of their sight: keep those to fixed, reviewed shapes).
  regexp.configs['flat/recommended'],
  {
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      // A pattern that is not anchored is tried at every position: quadratic if each try can run long.
      'regexp/no-super-linear-move': 'error',
      // Style only: they would rewrite working patterns all over the tree without finding a defect.
      'regexp/prefer-w': 'off',
      'regexp/use-ignore-case': 'off',
      'regexp/control-character-escape': 'off',
      'regexp/no-useless-character-class': 'off',
    },
  },
  {
    // Plain JavaScript helpers (CI scripts) are linted without type information.
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { console: 'readonly', process: 'readonly' },
    },
  },
  {
    // The pure core must not reach for I/O: no drivers, no node: I/O modules, no ambient clock or env.
    files: ['packages/domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'pg',
                'kysely',
                'ioredis',
                'bullmq',
                '@elastic/*',
                'node:fs*',
                'node:net',
                'node:http*',
                'fastify*',
              ],
              message: 'packages/domain is the pure core: keep I/O in the adapters.',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Pass configuration in.' },
      ],
    },
  },
);
