import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The admin screens (index.html, served at /admin) and the set-password page (served at
 * /set-password), built to dist/web. Assets are hashed files under /admin/assets/; no inline
 * script or style is emitted, so the pages run under a strict Content-Security-Policy.
 */
export default defineConfig({
  root: here('.'),
  base: '/admin/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    rollupOptions: {
      input: { admin: here('index.html'), setPassword: here('set-password.html') },
    },
  },
});
