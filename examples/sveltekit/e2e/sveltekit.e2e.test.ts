import path from 'node:path';
import { describeExampleApp } from '../../e2e/support';

/** Builds the SvelteKit example (`vite build`), serves the production build (`vite preview`), talks HTTP. */
describeExampleApp('examples/sveltekit (server hook + +server.ts route, production build)', {
    dir: path.resolve(__dirname, '..'),
    build: ['vite', ['build']],
    serve: (port) => ['vite', ['preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1']],
});
