import { resolve } from 'node:path';
import type { NextConfig } from 'next';

// GitHub Pages serves a project site under /<repo>; the deploy sets EVERYCELL_BASE_PATH to it.
const basePath = process.env.EVERYCELL_BASE_PATH ?? '';
if (basePath !== '' && !/^\/[\w.-]+(\/[\w.-]+)*$/.test(basePath)) {
  throw new Error(`EVERYCELL_BASE_PATH must look like "/everycell" (got "${basePath}")`);
}

const config: NextConfig = {
  output: 'export',
  // A custom distDir is where a static export lands; the browser tests build into their own.
  distDir: process.env.EVERYCELL_OUT_DIR ?? '.next',
  basePath,
  // lib/routes.ts prefixes links with it, in client components too: inline it into their bundles.
  env: { EVERYCELL_BASE_PATH: basePath },
  trailingSlash: true,
  images: { unoptimized: true },
  poweredByHeader: false,
  // The test command type-checks the site (npm run typecheck -w apps/web, before the build); the
  // build does not check it a second time.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  // vega's CommonJS/ESM mix loads from node_modules at build time, and so do native modules that
  // the harness's flag table reaches through its imports (DuckDB): none of them is bundled.
  serverExternalPackages: ['vega', 'vega-lite', '@duckdb/node-api', '@duckdb/node-bindings'],
  turbopack: { root: resolve(process.cwd(), '../..') },
  // The harness package is TypeScript with NodeNext imports ("./flags.js" for flags.ts). Turbopack
  // cannot map those yet (vercel/next.js#82945), so the site builds with webpack and this alias.
  webpack: (webpackConfig: { resolve: { extensionAlias?: Record<string, string[]> } }) => {
    webpackConfig.resolve.extensionAlias = { '.js': ['.ts', '.tsx', '.js'] };
    return webpackConfig;
  },
};

export default config;
