import { sveltekit } from '@sveltejs/kit/vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
    plugins: [sveltekit()],
    // This example compiles zenstack-api from its TypeScript sources as ES modules; bundling superjson
    // (a CommonJS package with a default export) gives them the default export they expect. An app using
    // the published (CommonJS) package does not need this.
    ssr: { noExternal: ['superjson'] },
    // the package root (`withTransactionCleanup`) from the sources too; only the exact name, so that the
    // subpaths keep the aliases of svelte.config.js
    resolve: { alias: [{ find: /^zenstack-api$/, replacement: fileURLToPath(new URL('../../src/index.ts', import.meta.url)) }] },
});
