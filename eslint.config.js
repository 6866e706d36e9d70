// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'coverage/**', 'test-results/**', 'eslint.config.js'] },
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
