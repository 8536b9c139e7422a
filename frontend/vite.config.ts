import { defineConfig } from 'vitest/config';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// One API client, two transports picked at build time (docs/architecture.md). The web
// build (default, VITE_TARGET=web) talks HTTP; the desktop build
// (VITE_TARGET=wails) will call the Wails bindings through src/api/wails.ts.
const target = process.env.VITE_TARGET ?? 'web';
const transport = target === 'wails' ? './src/api/wails.ts' : './src/api/http.ts';
const transportPath = fileURLToPath(new URL(transport, import.meta.url));
if (!existsSync(transportPath)) {
  // Fail loudly: a desktop build silently using fetch would talk to nothing.
  throw new Error(`VITE_TARGET=${target} needs ${transport}, which is not written yet`);
}

export default defineConfig({
  resolve: {
    alias: {
      '@transport': transportPath,
    },
  },
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'preact' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline scripts anywhere: the server's CSP is script-src 'self'.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1200,
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
