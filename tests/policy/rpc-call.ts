import { RPCApiHandler } from '../../src/api/rpc';
import type { TestSchema } from '../support/schema';

/** One RPC request as a user of a test schema, the way an adapter hands it over (GET and DELETE arguments in `q`). */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Res = { status: number; body: any; text: string };

const handler = RPCApiHandler();

export async function rpcAs(
    s: TestSchema,
    user: { id: number | string } | undefined,
    method: string,
    path: string,
    args: unknown,
    options: { zod?: boolean } = {},
): Promise<Res> {
    const isQuery = method === 'GET' || method === 'DELETE';
    const res = await handler({
        method,
        path,
        query: isQuery ? { q: JSON.stringify(args) } : {},
        requestBody: isQuery ? undefined : args,
        prisma: s.enhance(user),
        modelMeta: s.modelMeta,
        zodSchemas: options.zod ? s.zodSchemas : undefined,
        logger: null,
    });
    return { status: res.status, body: res.body, text: JSON.stringify(res.body) };
}
