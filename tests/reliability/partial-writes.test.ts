import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { errorBodyProblem, protocolOf, send, type HttpRequest } from './support/http';
import { startApi, type RunningApi } from './support/server';

/**
 * Writes made of several steps that fail part-way (a related record missing or not connectable, a
 * nested part violating a unique constraint or the policy, a later operation of a transaction
 * failing) answer a clean 4xx and leave every table exactly as it was: compared row by row with the
 * raw client before and after.
 */

interface World {
    alice: number;
    bob: number;
    bobEmail: string;
    alicePub: number;
    aliceDraft: number;
    bobPub: number;
    /** alice's comments (she moderates them), on alicePub and aliceDraft */
    aliceComment: number;
    aliceDraftComment: number;
    /** on bob's published post: alice can read it but not move it */
    bobComment: number;
    /** on bob's draft: alice cannot even read it */
    bobDraftComment: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function seed(prisma: any): Promise<World> {
    const alice = await prisma.user.create({ data: { email: 'alice@partial.test', profile: { create: { gender: 'f' } } } });
    const bob = await prisma.user.create({ data: { email: 'bob@partial.test' } });
    const post = (title: string, authorId: number, published: boolean) => prisma.post.create({ data: { title, authorId, published } });
    const alicePub = await post('alice pub', alice.id, true);
    const aliceDraft = await post('alice draft', alice.id, false);
    const bobPub = await post('bob pub', bob.id, true);
    const bobDraft = await post('bob draft', bob.id, false);
    const comment = (content: string, postId: number) => prisma.comment.create({ data: { content, postId } });
    return {
        alice: alice.id,
        bob: bob.id,
        bobEmail: bob.email,
        alicePub: alicePub.id,
        aliceDraft: aliceDraft.id,
        bobPub: bobPub.id,
        aliceComment: (await comment('on alice pub', alicePub.id)).id,
        aliceDraftComment: (await comment('on alice draft', aliceDraft.id)).id,
        bobComment: (await comment('on bob pub', bobPub.id)).id,
        bobDraftComment: (await comment('on bob draft', bobDraft.id)).id,
    };
}

const MODELS = ['user', 'profile', 'post', 'comment', 'allTypes'] as const;

/** Every row of every table, by id, through the raw client (no policy). */
async function snapshot(s: TestSchema): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const m of MODELS) out[m] = await s.prisma[m].findMany({ orderBy: { id: 'asc' } });
    return out;
}

const NO_SUCH_ID = 987654;
const comments = (...ids: number[]) => ({ data: ids.map((id) => ({ type: 'comment', id })) });
const restPost = (w: World, relationships: Record<string, unknown>, attributes: Record<string, unknown> = { title: 'new post' }) => ({
    data: { type: 'post', attributes, relationships: { author: { data: { type: 'user', id: w.alice } }, ...relationships } },
});
const tx = (...ops: [string, string, unknown][]) => ops.map(([model, op, args]) => ({ model, op, args }));

interface Case {
    name: string;
    request: (w: World) => HttpRequest;
    status: number;
    /** The error code: RPC `error.code`, REST `errors[0].code`. */
    code?: string;
    /** For transactions: the index of the operation that failed. */
    failedOperation?: number;
}

/** Every case fails part-way through a write that has already done (or would do) something. */
const CASES: Case[] = [
    {
        name: 'REST create with a to-many relationship naming a record that does not exist',
        request: (w) => ({ method: 'POST', path: '/api/rest/post', body: restPost(w, { comments: comments(w.aliceComment, NO_SUCH_ID) }), user: w.alice }),
        status: 404,
        code: 'not-found',
    },
    {
        name: 'REST create with a to-many relationship naming a record the user may read but not move',
        request: (w) => ({ method: 'POST', path: '/api/rest/post', body: restPost(w, { comments: comments(w.aliceComment, w.bobComment) }), user: w.alice }),
        status: 403,
        code: 'forbidden',
    },
    {
        name: 'REST create with a to-many relationship naming a record the user cannot read',
        request: (w) => ({ method: 'POST', path: '/api/rest/post', body: restPost(w, { comments: comments(w.aliceComment, w.bobDraftComment) }), user: w.alice }),
        status: 404,
        code: 'not-found',
    },
    {
        name: 'REST update of attributes and a to-many relationship, one member missing',
        request: (w) => ({
            method: 'PATCH',
            path: `/api/rest/post/${w.alicePub}`,
            body: { data: { type: 'post', id: String(w.alicePub), attributes: { title: 'renamed', published: false }, relationships: { comments: comments(w.aliceDraftComment, NO_SUCH_ID) } } },
            user: w.alice,
        }),
        status: 404,
        code: 'not-found',
    },
    {
        name: 'REST add to a to-many relationship, one record not movable',
        request: (w) => ({ method: 'POST', path: `/api/rest/post/${w.alicePub}/relationships/comments`, body: comments(w.aliceDraftComment, w.bobComment), user: w.alice }),
        status: 403,
        code: 'forbidden',
    },
    {
        name: 'REST replace a to-many relationship, one record missing',
        request: (w) => ({ method: 'PATCH', path: `/api/rest/post/${w.alicePub}/relationships/comments`, body: comments(w.aliceDraftComment, NO_SUCH_ID), user: w.alice }),
        status: 404,
        code: 'not-found',
    },
    {
        name: 'RPC nested create whose nested record violates a unique constraint',
        request: (w) => ({ method: 'POST', path: '/api/rpc/allTypes/create', body: { data: { string: 'parent', owner: { create: { email: w.bobEmail } } } }, user: w.alice }),
        status: 400,
        code: 'P2002',
    },
    {
        name: 'RPC create with nested creates, the last violating a unique constraint (the parent and a first child are written before it)',
        request: (w) => ({
            method: 'POST',
            path: '/api/rpc/user/create',
            body: { data: { email: 'carol@partial.test', allTypes: { create: [{ id: 'twin', string: 'first' }, { id: 'twin', string: 'second' }] } } },
            user: w.alice,
        }),
        status: 400,
        code: 'P2002',
    },
    {
        name: 'RPC nested create whose nested part the policy denies (anonymous sign-up with a post)',
        request: () => ({ method: 'POST', path: '/api/rpc/user/create', body: { data: { email: 'new@partial.test', posts: { create: [{ title: 'first' }] } } } }),
        status: 403,
        code: 'P2004',
    },
    {
        name: 'RPC createMany with one duplicate',
        request: (w) => ({ method: 'POST', path: '/api/rpc/user/createMany', body: { data: [{ email: 'fresh@partial.test' }, { email: w.bobEmail }] }, user: w.alice }),
        status: 400,
        code: 'P2002',
    },
    {
        name: '$transaction/sequential whose last operation violates a unique constraint',
        request: (w) => ({
            method: 'POST',
            path: '/api/rpc/$transaction/sequential',
            body: tx(
                ['post', 'create', { data: { title: 'in tx', authorId: w.alice } }],
                ['comment', 'create', { data: { content: 'in tx', postId: w.alicePub } }],
                ['post', 'update', { where: { id: w.alicePub }, data: { viewCount: { increment: 1 } } }],
                ['user', 'create', { data: { email: w.bobEmail } }],
            ),
            user: w.alice,
        }),
        status: 400,
        code: 'P2002',
        failedOperation: 3,
    },
    {
        name: '$transaction/sequential whose second operation the policy denies',
        request: (w) => ({
            method: 'POST',
            path: '/api/rpc/$transaction/sequential',
            body: tx(['post', 'create', { data: { title: 'in tx', authorId: w.alice } }], ['post', 'update', { where: { id: w.bobPub }, data: { title: 'taken' } }]),
            user: w.alice,
        }),
        status: 403,
        code: 'P2004',
        failedOperation: 1,
    },
    {
        name: '$transaction/sequential whose second operation updates a record that does not exist',
        request: (w) => ({
            method: 'POST',
            path: '/api/rpc/$transaction/sequential',
            body: tx(['post', 'delete', { where: { id: w.aliceDraft } }], ['post', 'update', { where: { id: NO_SUCH_ID }, data: { title: 'x' } }]),
            user: w.alice,
        }),
        status: 404,
        code: 'P2025',
        failedOperation: 1,
    },
];

function partialWriteSuite(provider: Provider) {
    let s: TestSchema;
    let api: RunningApi;
    let world: World;

    beforeAll(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        s = await loadSchema(undefined, { provider });
        world = await seed(s.prisma);
        api = await startApi(s);
    });

    afterAll(async () => {
        await api?.close();
        await s?.cleanup();
    });

    it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        const before = await snapshot(s);
        const req = c.request(world);
        const res = await send(api.origin, req);
        expect({ status: res.status, problem: errorBodyProblem(protocolOf(req.path), res) }).toEqual({ status: c.status, problem: undefined });
        const code = protocolOf(req.path) === 'rpc' ? res.body.error.code : res.body.errors[0].code;
        expect({ code, failedOperation: res.body.error?.failedOperation }).toEqual({ code: c.code, failedOperation: c.failedOperation });
        expect(await snapshot(s)).toEqual(before);
    });
}

describe('failing multi-step writes leave no partial rows [sqlite]', () => partialWriteSuite('sqlite'));

describePg('failing multi-step writes leave no partial rows', () => partialWriteSuite('postgresql'));
