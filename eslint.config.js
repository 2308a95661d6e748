import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Production code never imports the test package: only tests, their helpers, stories and the mock server may.
const testingMessage =
  'Production code never imports the test package (only tests, stories and @kestrel/server/mock do).';
const testingImport = { name: '@kestrel/testing', message: testingMessage };
const testingSubpaths = { group: ['@kestrel/testing/*'], message: testingMessage };
const testOnlyFiles = [
  'packages/*/src/**/*.test.{ts,tsx}',
  'packages/*/src/**/*.test-d.ts',
  'packages/*/src/**/*.test-helper.{ts,tsx}',
  'packages/*/src/**/*.stories.tsx',
  'packages/react/src/components/stories/**',
  'packages/react/src/inspector/stories/**',
  'packages/react/src/components/docs-examples/**',
];

const domGlobals = Object.keys(globals.browser).filter(
  (name) => !(name in globals.node) && !(name in globals['shared-node-browser']),
);

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'storybook-static/**',
      '**/storybook-static/**',
      'artifacts/**',
      'bench-results/**',
      'coverage/**',
      '**/.next/**',
      '**/next-env.d.ts',
      // marked's lexer as marked ships it, minified (scripts/vendor-marked-lexer.ts).
      'packages/react/src/markdown/vendor/marked-lexer.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: [
      'packages/react/**/*.{ts,tsx}',
      'packages/ai-sdk/**/*.{ts,tsx}',
      'apps/**/*.{ts,tsx}',
      '.storybook/**/*.{ts,tsx}',
    ],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['packages/{react,server,ai-sdk}/src/**/*.{ts,tsx}'],
    ignores: [...testOnlyFiles, 'packages/server/src/mock-kestrel.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [testingImport], patterns: [testingSubpaths] }] },
  },
  {
    // The core runs anywhere: no React, no DOM. Tests may use what they like.
    files: ['packages/core/src/**/*.ts'],
    ignores: testOnlyFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', testingImport],
          patterns: [{ group: ['react-dom/*'] }, testingSubpaths],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...domGlobals.filter((name) => !['requestAnimationFrame', 'cancelAnimationFrame'].includes(name)),
      ],
    },
  },
  {
    // @kestrel/testing also runs in browsers (Storybook uses the scenario handler in memory): no Node built-ins.
    files: ['packages/testing/src/**/*.ts'],
    ignores: ['packages/testing/src/**/*.test.ts', 'packages/testing/src/**/*.test-helper.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^node:', message: '@kestrel/testing must run in browsers too.' }] },
      ],
    },
  },
);
