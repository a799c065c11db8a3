import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// Cross-origin isolation lets the WASM backend use threads (SharedArrayBuffer).
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// Content-Security-Policy (issue 10): no 'unsafe-eval', no inline script or style, everything
// from our own origin, so text from an imported file cannot run even if a bug let it in as markup.
// Each exception, and why (checked in headless Chromium: model ready on WASM, graph drawn, no
// violation; see src/ui/README.md):
// - 'wasm-unsafe-eval': WebAssembly compilation of the tfjs WASM backend and of the engine's int8
//   scan (src/core/vectors/simd.ts) (it allows no JS eval);
// - blob: in script-src and worker-src: tfjs's threaded WASM backend starts its pthread workers
//   from a Blob URL and they importScripts() another Blob URL (without it the encoder never
//   becomes ready). A worker takes its policy from its own response header, so the header must
//   carry these even though the page itself creates only same-origin module workers.
// - connect-src loopback (issue 11): the language model the person may run on this computer
//   (Ollama, llama.cpp server, LM Studio) at localhost or 127.0.0.1, any port; any other
//   origin stays refused, so memories cannot leave the device (the settings refuse other
//   addresses with a message first: src/core/query/endpoint.ts, the same hosts).
// React and d3 set styles through the CSSOM (element.style), which style-src does not govern.
// connect-src: the app's own origin, plus the model hub and the hosts its `resolve` URLs
// redirect large files to (cdn-lfs*.hf.co, cas-bridge.xethub.hf.co, …). This is for one purpose
// only: src/embed/model-download.ts, the opt-in download a person starts in the model manager
// (issue 8); nothing else in the app builds a URL outside its origin. A CSP cannot say "only
// this function", so the rule is kept by code (the hub base URL is the single constant
// HUB_BASE_URL in src/embed/catalogue.ts, used only by the models service) and checked by a test
// (src/embed/model-hub-csp.test.ts: this list matches HUB_BASE_URL, and no other module names
// the hub). Workers take their policy from their own response header, which carries the same
// directives. Everything the hub serves is checksummed before it is kept.
export const MODEL_HUB_ORIGINS = ['https://huggingface.co', 'https://*.huggingface.co', 'https://*.hf.co'];
// No [::1]: a CSP host-source cannot be an IPv6 literal (Chromium ignores it and logs an error on
// every load), so the settings refuse [::1] with a message naming localhost instead.
export const LOOPBACK_SOURCES = ['http://localhost:*', 'http://127.0.0.1:*', 'https://localhost:*', 'https://127.0.0.1:*'];
const CSP_DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval' blob:",
  "worker-src 'self' blob:",
  // the model hub, for the one download a person asks for in the model manager (see below), and
  // the loopback language model (issue 11, above)
  `connect-src 'self' ${MODEL_HUB_ORIGINS.join(' ')} ${LOOPBACK_SOURCES.join(' ')}`,
  // blob: the pictures on memories (issue 12), shown from object URLs the page makes of its own
  // stored Blobs (src/ui/memories/pictures.tsx); no picture is ever loaded from elsewhere
  "img-src 'self' blob:",
  "style-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
];
/** The policy as the built index.html's <meta> carries it (a meta cannot set frame-ancestors). */
export const CSP_META = CSP_DIRECTIVES.join('; ');
/** The policy as a response header (vite preview): the meta's plus frame-ancestors. */
export const CSP_HEADER = [...CSP_DIRECTIVES, "frame-ancestors 'none'"].join('; ');

/**
 * Puts the CSP <meta> into the built pages only: the dev server injects inline scripts (React
 * refresh, HMR client) that the policy would block.
 */
function cspMeta(): Plugin {
  return {
    name: 'mnemograph-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP_META }, injectTo: 'head-prepend' }],
  };
}

export default defineConfig({
  plugins: [
    cspMeta(),
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
        // Weight shards have no file extension, hence models/**/* (USE-lite's shards are 4 MiB,
        // MiniLM's onnx/model_quantized.onnx 23 MB, the judge's 111 MB: precached like the rest, so
        // "ready offline" covers the careful ranking too and a rebuilt graph replaces the old one by
        // its revision; a first-use runtime cache would keep a stale judge and miss it when the
        // person goes offline early); ort/* is onnxruntime-web's .mjs + .wasm (27 MB).
        globPatterns: ['**/*.{js,css,html,svg,png,wasm,json,webmanifest}', 'models/**/*', 'ort/*', 'generated/**/*'],
        // onnxruntime-web's bundle names its .wasm with new URL(..., import.meta.url), so the build
        // emits a hashed copy in assets/; the runtime is pointed at ort/ instead (wasmPaths), so that
        // copy is never fetched and must not be precached twice (27 MB).
        // careful ranking's judge (~111 MB, models/all-mpnet-base-v2-int8/) is not precached (214 MB
        // instead of 105 on every first visit, and a worker made before the service worker claimed
        // the page is not served by it): its worker keeps the files itself once it first reads them (after the
        // app is warm; workers/judge.worker.ts), so it works offline from then on
        globIgnores: ['assets/ort-wasm-*.wasm', 'models/all-mpnet-base-v2-int8/**'],
        maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
        // Without this the first visit has no controlling service worker.
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        navigateFallback: 'index.html',
      },
    }),
  ],
  server: { headers: isolation, host: '127.0.0.1' },
  preview: { headers: { ...isolation, 'Content-Security-Policy': CSP_HEADER }, host: '127.0.0.1' },
  worker: {
    format: 'es',
    rolldownOptions: {
      // Vite 8's default minifier breaks tfjs's threaded WASM loader inside a worker.
      // MNEMOGRAPH_READABLE=1 keeps the workers' names (a profile of the bench build; with --minify false for the page)
      output: { minify: process.env.MNEMOGRAPH_READABLE === '1' ? false : { compress: false, mangle: true } },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      // diagnostics.html: encoder / engine checks and in-browser benchmarks; graph-lab.html: graph bench.
      // bench.html (issue 13's scale benchmark, scripts/bench/scale.ts) only in the bench build
      // (MNEMOGRAPH_BENCH=1 -> dist-bench/): the production app does not ship it.
      input: {
        main: 'index.html',
        diagnostics: 'diagnostics.html',
        graphLab: 'graph-lab.html',
        ...(process.env.MNEMOGRAPH_BENCH === '1' && { bench: 'bench.html' }),
      },
    },
  },
});
