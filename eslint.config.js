import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const domGlobals = Object.keys(globals.browser).filter((name) => !(name in globals.node) && !(name in globals['shared-node-browser']));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'storybook-static/**', '**/storybook-static/**', 'artifacts/**', 'bench-results/**', 'coverage/**', '**/.next/**', '**/next-env.d.ts'] },
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
    files: ['packages/react/**/*.{ts,tsx}', 'packages/ai-sdk/**/*.{ts,tsx}', 'apps/**/*.{ts,tsx}', '.storybook/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The core runs anywhere: no React, no DOM. Tests may use what they like.
    files: ['packages/core/src/**/*.ts'],
    ignores: ['packages/core/src/**/*.test.ts', 'packages/core/src/**/*.test-d.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'], patterns: ['react-dom/*'] }],
      'no-restricted-globals': ['error', ...domGlobals.filter((name) => !['requestAnimationFrame', 'cancelAnimationFrame'].includes(name))],
    },
  },
  {
    // @kestrel/testing also runs in browsers (Storybook uses the scenario handler in memory): no Node built-ins.
    files: ['packages/testing/src/**/*.ts'],
    ignores: ['packages/testing/src/**/*.test.ts', 'packages/testing/src/**/*.test-helper.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^node:', message: '@kestrel/testing must run in browsers too.' }] }] },
  },
);
