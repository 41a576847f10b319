import path from 'node:path';
import { describeExampleApp } from '../../e2e/support';

/** Builds the Next.js example (`next build`), starts it with `next start` and talks to it over HTTP. */
describeExampleApp('examples/nextjs (App Router, production build)', {
    dir: path.resolve(__dirname, '..'),
    build: ['next', ['build']],
    serve: (port) => ['next', ['start', '-p', String(port), '-H', '127.0.0.1']],
});
