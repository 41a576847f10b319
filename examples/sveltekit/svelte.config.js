import { fileURLToPath } from 'node:url';

const src = (p) => fileURLToPath(new URL(`../../src/${p}`, import.meta.url));

/** @type {import('@sveltejs/kit').Config} */
export default {
    kit: {
        // No adapter: `vite build` + `vite preview` run the production build. To deploy, add one, e.g.
        // `import adapter from '@sveltejs/adapter-node'` and `adapter: adapter()`.
        // In this repository the example imports zenstack-api from its sources; an application installs it.
        alias: {
            'zenstack-api/sveltekit': src('adapters/sveltekit'),
            'zenstack-api/api/rest': src('api/rest'),
        },
    },
};
