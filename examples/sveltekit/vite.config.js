import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

export default defineConfig({
    plugins: [sveltekit()],
    // This example compiles zenstack-api from its TypeScript sources as ES modules; bundling superjson
    // (a CommonJS package with a default export) gives them the default export they expect. An app using
    // the published (CommonJS) package does not need this.
    ssr: { noExternal: ['superjson'] },
});
