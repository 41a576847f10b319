import { RestApiHandler } from 'zenstack-api/api/rest';
import { SvelteKitRouteHandler } from 'zenstack-api/sveltekit';
import { assets, enhanced } from '$lib/server/db';

// JSON:API under /api/rest: /api/rest/<type>[/<id>[/<relationship>]]
const handler = SvelteKitRouteHandler({
    ...assets,
    getPrisma: (event) => enhanced(event.locals.user),
    handler: RestApiHandler({ endpoint: `${process.env.PUBLIC_URL ?? 'http://localhost:4173'}/api/rest` }),
});

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
