import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// Cross-origin isolation lets the WASM backend use threads (SharedArrayBuffer).
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['icons/*.png', 'icons/*.svg'],
      manifest: {
        name: 'Mnemograph',
        short_name: 'Mnemograph',
        description: 'A local-first personal memory explorer. Nothing leaves your device.',
        theme_color: '#1f2937',
        background_color: '#0f172a',
        display: 'standalone',
        start_url: '.',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // Weight shards have no file extension, hence models/**/*; they are 4 MiB each.
        globPatterns: ['**/*.{js,css,html,svg,png,wasm,json,webmanifest}', 'models/**/*', 'generated/**/*'],
        maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
        // Without this the first visit has no controlling service worker.
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        navigateFallback: 'index.html',
      },
    }),
  ],
  server: { headers: isolation, host: '127.0.0.1' },
  preview: { headers: isolation, host: '127.0.0.1' },
  worker: {
    format: 'es',
    rolldownOptions: {
      // Vite 8's default minifier breaks tfjs's threaded WASM loader inside a worker.
      output: { minify: { compress: false, mangle: true } },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      // diagnostics.html: encoder / engine checks and in-browser benchmarks; graph-lab.html: graph bench.
      input: { main: 'index.html', diagnostics: 'diagnostics.html', graphLab: 'graph-lab.html' },
    },
  },
});
