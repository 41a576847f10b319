import v8 from 'node:v8';
import vm from 'node:vm';
import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import type { HandleRequestFn, RequestContext } from '../../src/types';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * A long-running server must not keep memory in proportion to the number of distinct requests it has
 * answered. Each test sends requests that all differ in what a client chooses (unknown fields, filter keys,
 * include paths, sort and fieldset names, page offsets, ids, route spellings, users, relationship sets) to
 * the handlers, and compares the heap retained (after full collections) after N such requests and after 2N:
 * the second N must keep (about) nothing more. Anything kept per distinct key, such as a cache keyed by what
 * the request says, grows in proportion to N. (Caches keyed by the schema fill up during the first N.)
 */

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function retainedHeap(): number {
    for (let i = 0; i < 3; i++) gc();
    return process.memoryUsage().heapUsed;
}

type Sent = Pick<RequestContext, 'method' | 'path' | 'query' | 'requestBody'> & { user?: number };
type Family = { handler: HandleRequestFn; make: (n: number) => Sent };

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

/**
 * Sends N requests of every family, each with a key never sent before, measures the retained heap, sends N more
 * and measures again: returns the growth of the second N (bytes) and the statuses seen.
 */
async function growthOfSecondN(s: TestSchema, families: Family[], perFamily: number) {
    let n = 0;
    const statuses = new Set<number>();
    const sendN = async () => {
        for (let i = 0; i < perFamily; i++, n++) {
            for (const { handler, make } of families) {
                const sent = make(n);
                const res = await handler({
                    query: {},
                    ...sent,
                    prisma: s.enhance(sent.user === undefined ? undefined : { id: sent.user }),
                    modelMeta: s.modelMeta,
                    zodSchemas: s.zodSchemas,
                    logger: silent,
                });
                statuses.add(res.status);
            }
        }
    };
    await sendN();
    const afterN = retainedHeap();
    await sendN();
    return { growth: retainedHeap() - afterN, statuses: [...statuses].sort() };
}

/** What the retained heap may grow by in the second N: GC and JIT noise measured here stayed under 0.5 MiB. */
const MARGIN = 1.5 * 1024 * 1024;

describe('blog schema: distinct hostile keys', () => {
    let s: TestSchema;
    const rpc = RPCApiHandler();
    const rest = RestApiHandler({ endpoint: 'http://localhost/api' });
    const q = (args: unknown) => ({ q: JSON.stringify(args) });

    beforeAll(async () => {
        s = await loadSchema();
        await s.prisma.user.create({ data: { id: 1, email: 'u1@x', posts: { create: [{ id: 1, title: 'one', published: true }] } } });
    });
    afterAll(() => s?.cleanup());

    /** A name never sent before, 8 KB long (within the adapters' default query limit): a cache keyed by such names keeps at least that per request. */
    const name = (n: number) => `k${n}${'x'.repeat(8000)}`;

    const families = (): Family[] => [
        // RPC: unknown fields, models, operations; route spellings; distinct ids and users; a failing transaction
        { handler: rpc, make: (n) => ({ method: 'GET', path: '/post/findMany', query: q({ where: { [name(n)]: 1 } }) }) },
        { handler: rpc, make: (n) => ({ method: 'GET', path: `/${name(n)}/findMany` }) },
        { handler: rpc, make: (n) => ({ method: 'GET', path: `/post/${name(n)}` }) },
        // short enough for the route cache (at most 1,000 of them are kept)
        { handler: rpc, make: (n) => ({ method: 'GET', path: `${'/'.repeat(1 + (n % 40))}post${'/'.repeat(1 + Math.floor(n / 40))}count`, query: q({ where: { [name(n)]: 1 } }) }) },
        { handler: rpc, make: (n) => ({ method: 'GET', path: '/post/findUnique', query: q({ where: { id: 1e9 + n } }), user: 1000 + n }) },
        { handler: rpc, make: (n) => ({ method: 'POST', path: '/$transaction/sequential', requestBody: [{ model: 'post', op: 'findMany', args: { select: { [name(n)]: true } } }] }) },
        // JSON:API: unknown filter keys, include paths, sort fields, fieldsets, types, ids, attributes; distinct pages and users
        { handler: rest, make: (n) => ({ method: 'GET', path: '/post', query: { [`filter[${name(n)}]`]: '1' } }) },
        { handler: rest, make: (n) => ({ method: 'GET', path: '/post', query: { include: `author.${name(n)}` } }) },
        { handler: rest, make: (n) => ({ method: 'GET', path: '/post', query: { sort: `-${name(n)}` } }) },
        { handler: rest, make: (n) => ({ method: 'GET', path: '/post', query: { [`fields[${name(n)}]`]: 'title' } }) },
        { handler: rest, make: (n) => ({ method: 'GET', path: `/${name(n)}` }) },
        { handler: rest, make: (n) => ({ method: 'GET', path: `/post/${'9'.repeat(8000)}${n}` }) },
        { handler: rest, make: (n) => ({ method: 'GET', path: '/post', query: { 'page[offset]': String(n), 'page[limit]': String(1 + (n % 50)) }, user: 5000 + n }) },
        { handler: rest, make: (n) => ({ method: 'POST', path: '/post', requestBody: { data: { type: 'post', attributes: { title: 't', [name(n)]: 1 } } }, user: 1 }) },
    ];

    it('retain no more heap after 2N distinct requests than after N (both handlers)', async () => {
        const { growth, statuses } = await growthOfSecondN(s, families(), 250);
        // every request was answered, none as a server error
        expect(statuses.every((status) => status < 500)).toBe(true);
        // 3,500 requests in the second N, 3,000 of them with a new 8 KB name or id: a cache of those of any one
        // family (2 MB), or anything of 450 bytes or more kept per request, would be over the margin
        expect(growth).toBeLessThan(MARGIN);
        // nothing was written
        expect(await s.prisma.post.count()).toBe(1);
    });
});

describe('a model with many relationships: distinct relationship sets in JSON:API writes', () => {
    // 12 optional to-one relationships: 4,096 sets of them a body can send
    const K = 12;
    const SCHEMA = `
model Target {
  id Int @id
${Array.from({ length: K }, (_, i) => `  hub${i} Hub[] @relation("r${i}")`).join('\n')}
  @@allow('all', true)
}
model Hub {
  id   Int    @id @default(autoincrement())
  name String @length(1, 5)
${Array.from({ length: K }, (_, i) => `  r${i} Target? @relation("r${i}", fields: [r${i}Id], references: [id])\n  r${i}Id Int?`).join('\n')}
  @@allow('all', true)
}
`;
    let s: TestSchema;
    const rest = RestApiHandler({ endpoint: 'http://localhost/api' });

    beforeAll(async () => {
        s = await loadSchema(SCHEMA);
    });
    afterAll(() => s?.cleanup());

    /** A create naming the relationships of the bits of `n`, with a name the schema refuses: a 422, nothing written. */
    const write = (n: number): Sent => {
        const relationships: Record<string, unknown> = {};
        for (let b = 0; b < K; b++) if ((n + 1) & (1 << b)) relationships[`r${b}`] = { data: { type: 'target', id: '1' } };
        return { method: 'POST', path: '/hub', requestBody: { data: { type: 'hub', attributes: { name: 'too long' }, relationships } } };
    };

    it('the zod check keeps no schema per set', async () => {
        const { growth, statuses } = await growthOfSecondN(s, [{ handler: rest, make: write }], 1500);
        expect(statuses).toEqual([422]);
        // a schema without the set's foreign keys was kept per set (about 2.3 KB each: 3.4 MB for the second N)
        expect(growth).toBeLessThan(MARGIN);
        expect(await s.prisma.hub.count()).toBe(0);
    });
});
