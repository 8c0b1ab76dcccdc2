// Vite config for the Fieldcheck web client; run from the repository root with
// `vite --config web/vite.config.ts` (dev) or `vite build --config web/vite.config.ts`.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const schemasDir = fileURLToPath(new URL('../supabase/functions/_shared/schemas', import.meta.url));

export default defineConfig({
  root: webDir,
  plugins: [react()],
  resolve: {
    alias: { '@schemas': schemasDir },
    // Deno may install its own zod under supabase/functions: bundle one copy only.
    dedupe: ['zod', 'react', 'react-dom'],
  },
  server: {
    // All interfaces, so both http://localhost and http://127.0.0.1 (the auth redirect URLs) work.
    host: true,
    port: Number(process.env.PORT ?? 5173),
    strictPort: true,
  },
  preview: {
    host: true,
    port: Number(process.env.PORT ?? 4173),
    strictPort: true,
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than app code: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/ },
            { name: 'supabase', test: /node_modules[\\/]@supabase[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
});
