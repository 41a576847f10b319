import { NextRequestHandler } from 'zenstack-api/next';
import { assets, getPrisma } from '../../../../lib/db';

// RPC API: /api/model/<model>/<operation>, e.g. GET /api/model/post/findMany?q={"where":{"published":true}}
const handler = NextRequestHandler({ ...assets, getPrisma, useAppDir: true });

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
