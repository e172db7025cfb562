import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress.ts';

// The server (apps/server) listens on 3000 and serves dist/ in production; in development the
// Vite dev server forwards every server path there so the app always calls its own origin.
const SERVER = 'http://localhost:3000';
const PROXIED = ['/graphql', '/api', '/hook', '/healthz', '/readyz'];

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(PROXIED.map((path) => [path, { target: SERVER, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // dist/.vite/manifest.json: read by scripts/bundle-size.ts.
    manifest: true,
  },
});
