import type { NextConfig } from 'next';

/*
 * In this monorepo the kit's packages are TypeScript sources whose imports name `.js` files (as tsc wants), so the
 * example builds with webpack and its `extensionAlias`; Turbopack cannot map `.js` to `.ts` yet
 * (vercel/next.js#82945). An app that installs the published packages gets built JavaScript and needs none of
 * this: Turbopack, Next's default, works there.
 */
const config: NextConfig = {
  transpilePackages: ['@kestrel/ai-sdk', '@kestrel/core', '@kestrel/react', '@kestrel/server', '@kestrel/testing'],
  poweredByHeader: false,
  webpack: (webpackConfig: { resolve: { extensionAlias?: Record<string, string[]> } }) => {
    webpackConfig.resolve.extensionAlias = { '.js': ['.ts', '.tsx', '.js'] };
    return webpackConfig;
  },
};

export default config;
