import { q } from '../reliability/support/http';
import { call } from './support';

/**
 * The requests of the README's "Try it" sections, in their order, on a freshly seeded demo, and what the
 * README says they answer (ids included: the seed makes posts 1–6, so the two creates make posts 7 and 8).
 */

const JSON_API = 'application/vnd.api+json';

async function rpcExamples(base: string): Promise<void> {
    const published = await call(`${base}/api/rpc/post/findMany${q({ where: { published: true }, select: { id: true, title: true }, take: 2 })}`);
    expect(published.body).toEqual({ data: [{ id: 1, title: "Alice's first post" }, { id: 3, title: "Bob's first post" }] });

    const created = await call(`${base}/api/rpc/post/create`, { method: 'POST', user: 1, body: { data: { title: 'Hello from curl', author: { connect: { id: 1 } } } } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
        data: { id: 7, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), title: 'Hello from curl', published: false, viewCount: 0, authorId: 1 },
        meta: { serialization: { values: { createdAt: ['Date'] } } },
    });

    const denied = await call(`${base}/api/rpc/post/update`, { method: 'PATCH', user: 2, body: { where: { id: 1 }, data: { title: 'hijacked' } } });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ message: 'denied by access policy', rejectedByPolicy: true, reason: 'ACCESS_POLICY_VIOLATION', code: 'P2004' });

    const typed = await call(`${base}/api/rpc/allTypes/create`, {
        method: 'POST',
        body: {
            data: { bigInt: '9007199254740993', decimal: '0.1', bytes: 'AQID', dateTime: '2025-06-30T12:00:00.000Z' },
            meta: { serialization: { values: { 'data.bigInt': ['bigint'], 'data.decimal': [['custom', 'Decimal']], 'data.bytes': [['custom', 'Bytes']], 'data.dateTime': ['Date'] } } },
            select: { bigInt: true, decimal: true, bytes: true, dateTime: true },
        },
    });
    expect(typed.status).toBe(201);
    expect(typed.body).toEqual({
        data: { bigInt: '9007199254740993', decimal: '0.1', bytes: 'AQID', dateTime: '2025-06-30T12:00:00.000Z' },
        meta: { serialization: { values: { bigInt: ['bigint'], decimal: [['custom', 'Decimal']], bytes: [['custom', 'Bytes']], dateTime: ['Date'] } } },
    });
}

async function jsonApiExamples(base: string, endpoint: string): Promise<void> {
    const page = await call(`${base}/api/rest/post?filter[published]=true&include=author&fields[post]=title,author&fields[user]=name&page[limit]=1`, { user: 1 });
    expect(page.status).toBe(200);
    expect(page.body.data).toEqual([
        expect.objectContaining({ type: 'post', id: 1, attributes: { title: "Alice's first post" }, relationships: { author: expect.objectContaining({ data: { type: 'user', id: 1 } }) } }),
    ]);
    expect(page.body.included).toEqual([expect.objectContaining({ type: 'user', id: 1, attributes: { name: 'Alice' } })]);
    expect(page.body.meta).toEqual({ total: 3 });
    expect(page.body.links).toMatchObject({ prev: null, first: expect.stringMatching(/&page\[limit\]=1$/), last: expect.stringMatching(/&page\[offset\]=2&page\[limit\]=1$/) });
    expect(page.body.links.next).toMatch(/&page\[offset\]=1&page\[limit\]=1$/);

    const created = await call(`${base}/api/rest/post`, {
        method: 'POST',
        user: 1,
        contentType: JSON_API,
        body: { data: { type: 'post', attributes: { title: 'Hello JSON:API' }, relationships: { author: { data: { type: 'user', id: 1 } } } } },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${endpoint}/post/8`);

    const published = await call(`${base}/api/rest/post/8`, { method: 'PATCH', user: 1, contentType: JSON_API, body: { data: { type: 'post', id: '8', attributes: { published: true } } } });
    expect(published.status).toBe(200);
    expect(published.body.data.attributes.published).toBe(true);

    const replaced = await call(`${base}/api/rest/post/8/relationships/comments`, { method: 'PATCH', user: 1, contentType: JSON_API, body: { data: [{ type: 'comment', id: 1 }] } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ data: [{ type: 'comment', id: 1 }], jsonapi: { version: '1.1' }, meta: { total: 1 } });

    const denied = await call(`${base}/api/rest/post/1`, { method: 'DELETE', user: 2 });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
        errors: [{ status: 403, code: 'forbidden', title: 'Forbidden', detail: 'denied by access policy', ormCode: 'P2004', reason: 'ACCESS_POLICY_VIOLATION' }],
        jsonapi: { version: '1.1' },
    });

    const hidden = await call(`${base}/api/rest/post/2`, { user: 2 });
    expect(hidden.body).toEqual({ errors: [{ status: 404, code: 'not-found', title: 'Resource not found', detail: 'post "2" not found' }], jsonapi: { version: '1.1' } });
    // its author reads it
    expect((await call(`${base}/api/rest/post/2`, { user: 1 })).status).toBe(200);
}

/** Sends the README's requests to the demo at `base`, whose JSON:API links start with `endpoint`. */
export async function expectReadmeAnswers(base: string, endpoint = `${base}/api/rest`): Promise<void> {
    await rpcExamples(base);
    await jsonApiExamples(base, endpoint);
}
