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
  // No inline styles: the kit renders none into server HTML (its e2e test fails on any CSP report in the console).
  // Next's own scripts are inline, so script-src is left to an app's nonce setup.
  headers: async () => [
    { source: '/:path*', headers: [{ key: 'Content-Security-Policy', value: "style-src 'self'" }] },
  ],
  webpack: (webpackConfig: { resolve: { extensionAlias?: Record<string, string[]> } }) => {
    webpackConfig.resolve.extensionAlias = { '.js': ['.ts', '.tsx', '.js'] };
    return webpackConfig;
  },
};

export default config;
