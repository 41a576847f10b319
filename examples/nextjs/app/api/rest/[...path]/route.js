import { RestApiHandler } from 'zenstack-api/api/rest';
import { NextRequestHandler } from 'zenstack-api/next';
import { assets, getPrisma } from '../../../../lib/db';

// JSON:API: /api/rest/<type>[/<id>[/<relationship>]], e.g. GET /api/rest/post?include=author
const handler = NextRequestHandler({
    ...assets,
    getPrisma,
    useAppDir: true,
    handler: RestApiHandler({ endpoint: `${process.env.PUBLIC_URL ?? 'http://localhost:3000'}/api/rest` }),
});

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
