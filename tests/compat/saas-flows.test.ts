import { RPCApiHandler as UpstreamRPCApiHandler } from '@zenstackhq/server/api/rpc';
import { RestApiHandler as UpstreamRestApiHandler } from '@zenstackhq/server/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import { RestApiHandler } from '../../src/api/rest';
import type { HandleRequestFn } from '../../src/types';
import { SAAS_SCHEMA, seedSaas } from '../support/saas-schema';
import { loadSchema, type TestSchema } from '../support/schema';
import { SILENT_LOGGER, type Body } from './sides';

/**
 * The main flows of a multi-tenant app (role-based rules through `members?[user == auth()]`, a compound-id
 * join model referenced by a compound foreign key, a self-relation, `@map` names, cuid ids, a field-level
 * read rule, `@omit`), through both handlers, with the answers of `@zenstackhq/server` 2.22.3 where the two
 * must agree (each side on its own identically seeded SQLite database).
 */

const ENDPOINT = 'http://localhost/api';

type Answer = { status: number; body: Body; headers?: Record<string, string> };
type Side = { s?: TestSchema; rpc: HandleRequestFn; rest: HandleRequestFn };

const ours: Side = { rpc: RPCApiHandler(), rest: RestApiHandler({ endpoint: ENDPOINT }) };
const upstream: Side = {
    rpc: UpstreamRPCApiHandler() as unknown as HandleRequestFn,
    rest: UpstreamRestApiHandler({ endpoint: ENDPOINT }) as unknown as HandleRequestFn,
};

beforeAll(async () => {
    for (const side of [ours, upstream]) {
        side.s = await loadSchema(SAAS_SCHEMA);
        await seedSaas(side.s);
    }
});
afterAll(async () => {
    for (const side of [ours, upstream]) await side.s?.cleanup();
});

async function send(side: Side, kind: 'rpc' | 'rest', method: string, path: string, user?: string, query: Record<string, string> = {}, body?: unknown): Promise<Answer> {
    const s = side.s as TestSchema;
    const res = await side[kind]({
        method,
        path,
        query,
        requestBody: body,
        prisma: s.enhance(user ? { id: user } : undefined),
        modelMeta: s.modelMeta,
        zodSchemas: s.zodSchemas,
        logger: SILENT_LOGGER,
    });
    return { status: res.status, body: JSON.parse(JSON.stringify(res.body ?? null)), headers: res.headers as Record<string, string> | undefined };
}

const rpc = (method: string, path: string, user: string | undefined, args: unknown) =>
    method === 'GET' || method === 'DELETE' ? send(ours, 'rpc', method, path, user, { q: JSON.stringify(args) }) : send(ours, 'rpc', method, path, user, {}, args);
const rest = (method: string, path: string, user?: string, query: Record<string, string> = {}, body?: unknown) => send(ours, 'rest', method, path, user, query, body);

/** What a JSON:API client reads of a resource: type, id, attributes and to-one linkage. */
function resourceView(r: Body): Body {
    const toOne = Object.fromEntries(
        Object.entries<Body>(r.relationships ?? {})
            .filter(([, rel]) => rel.data !== undefined && !Array.isArray(rel.data))
            .map(([name, rel]) => [name, rel.data]),
    );
    const { updatedAt: _ignored, ...attributes } = r.attributes ?? {};
    return { type: r.type, id: r.id, attributes, toOne };
}

function documentView(doc: Body): Body {
    const data = Array.isArray(doc.data) ? doc.data.map(resourceView) : doc.data && resourceView(doc.data);
    const included = (doc.included ?? []).map(resourceView).sort((a: Body, b: Body) => `${a.type}/${a.id}`.localeCompare(`${b.type}/${b.id}`));
    return { data, included, total: doc.meta?.total };
}

/**
 * Ours may add to-one linkage 2.22.3 leaves out, and `meta.total` on related collections; what 2.22.3 sends
 * must be there, equal.
 */
function withoutAddedLinkage(mine: Body, theirs: Body): Body {
    const keep = (r: Body, t: Body | undefined) => ({ ...r, toOne: Object.fromEntries(Object.entries(r.toOne).filter(([k]) => t && k in t.toOne)) });
    const byKey = (list: Body[]) => new Map(list.map((r) => [`${r.type}/${r.id}`, r]));
    const theirData = Array.isArray(theirs.data) ? byKey(theirs.data) : undefined;
    const theirIncluded = byKey(theirs.included);
    return {
        ...mine,
        total: theirs.total === undefined ? undefined : mine.total,
        data: Array.isArray(mine.data) ? mine.data.map((r: Body) => keep(r, theirData?.get(`${r.type}/${r.id}`))) : mine.data && keep(mine.data, theirs.data),
        included: mine.included.map((r: Body) => keep(r, theirIncluded.get(`${r.type}/${r.id}`))),
    };
}

describe('JSON:API reads, before any write', () => {
    it.each<[string, string, Record<string, string>, string]>([
        ['a compound-id resource with includes', '/membership/sacme_ubob', { include: 'user,space' }, 'ualice'],
        ['a space with members and their users', '/space/sacme', { include: 'members.user,projects' }, 'ualice'],
        ['resources linked through a compound foreign key', '/timeEntry', { 'filter[membership]': 'sacme_ubob', include: 'membership' }, 'ualice'],
        ['a filter and a sort on @map-ed columns and through a relationship', '/task', { 'filter[title$startsWith]': 'De', 'filter[project][key]': 'WEB', sort: 'project.name,-number' }, 'ubob'],
        ['the related members of a space, sorted by an enum', '/space/sacme/members', { sort: 'role' }, 'ualice'],
        ['a self-relation', '/task/t1/children', {}, 'ubob'],
        ['a field-level read rule (Bob may not read budgets)', '/project', { sort: 'key' }, 'ubob'],
        ['another tenant sees nothing of acme', '/task', {}, 'udave'],
    ])('%s: read as 2.22.3 answers it', async (_name, path, query, user) => {
        const [mine, theirs] = [await send(ours, 'rest', 'GET', path, user, query), await send(upstream, 'rest', 'GET', path, user, query)];
        expect([mine.status, theirs.status]).toEqual([200, 200]);
        const theirView = documentView(theirs.body);
        expect(withoutAddedLinkage(documentView(mine.body), theirView)).toEqual(theirView);
    });
});

describe('RPC flows', () => {
    it.each<[string, string, unknown, string]>([
        ['filtered, ordered findMany with include', '/task/findMany', { where: { project: { key: 'WEB', space: { slug: 'acme' } } }, select: { id: true, title: true, dueAt: true, labels: true, assignee: { select: { name: true } }, children: { select: { id: true } } }, orderBy: [{ priority: 'desc' }, { id: 'asc' }] }, 'ubob'],
        ['cursor pagination by a compound unique key', '/task/findMany', { cursor: { projectId_number: { projectId: 'pweb', number: 2 } }, take: 2, orderBy: { number: 'asc' }, select: { id: true, title: true } }, 'ualice'],
        ['findUnique by a compound id, through the join model', '/membership/findUnique', { where: { spaceId_userId: { spaceId: 'sacme', userId: 'ubob' } }, include: { user: true, entries: { select: { minutes: true } } } }, 'ualice'],
        ['a field-level read rule through a relation condition (Bob may not read budgets)', '/project/findMany', { select: { key: true, budget: true }, orderBy: { key: 'asc' } }, 'ubob'],
        ['the owner reads budgets', '/project/findMany', { select: { key: true, budget: true }, orderBy: { key: 'asc' } }, 'ualice'],
        ['@omit and a field-level rule on users', '/user/findMany', { orderBy: { email: 'asc' }, select: { id: true, password: true, phone: true } }, 'ubob'],
        ['count, aggregate and groupBy on a mapped column', '/task/groupBy', { by: ['status'], _count: { _all: true }, _sum: { priority: true }, _min: { title: true }, orderBy: { status: 'asc' } }, 'ualice'],
        ['another tenant sees nothing of acme', '/task/count', { where: { title: { not: 'x' } } }, 'udave'],
    ])('%s: answered as 2.22.3 answers', async (_name, path, args, user) => {
        const q = { q: JSON.stringify(args) };
        const [mine, theirs] = [await send(ours, 'rpc', 'GET', path, user, q), await send(upstream, 'rpc', 'GET', path, user, q)];
        expect(mine.status).toBe(200);
        expect(mine).toEqual(theirs);
    });

    it('creates a space with its owner membership, a project and tasks in one nested create', async () => {
        const res = await rpc('POST', '/space/create', 'udave', {
            data: {
                slug: 'initech',
                name: 'Initech',
                settings: { seats: 5, tags: ['a', null] },
                members: { create: { userId: 'udave', role: 'OWNER' } },
                projects: { create: { key: 'OPS', name: 'Ops', tasks: { create: [{ number: 1, title: 'Hire' }, { number: 2, title: 'Fire', labels: { urgent: true } }] } } },
            },
            select: { slug: true, settings: true, members: { select: { userId: true, role: true } }, projects: { select: { key: true, tasks: { select: { number: true, labels: true }, orderBy: { number: 'asc' } } } } },
        });
        expect(res).toEqual({
            status: 201,
            body: {
                data: {
                    slug: 'initech',
                    settings: { seats: 5, tags: ['a', null] },
                    members: [{ userId: 'udave', role: 'OWNER' }],
                    projects: [{ key: 'OPS', tasks: [{ number: 1, labels: null }, { number: 2, labels: { urgent: true } }] }],
                },
            },
            headers: undefined,
        });
    });

    it('upserts by a compound unique key (200, as the docs say), then updates the same row', async () => {
        const args = (title: string) => ({
            where: { projectId_number: { projectId: 'papi', number: 7 } },
            create: { number: 7, title, project: { connect: { id: 'papi' } } },
            update: { title },
            select: { number: true, title: true },
        });
        expect((await rpc('POST', '/task/upsert', 'ubob', args('Seven'))).body).toEqual({ data: { number: 7, title: 'Seven' } });
        expect((await rpc('POST', '/task/upsert', 'ubob', args('Seven!'))).body).toEqual({ data: { number: 7, title: 'Seven!' } });
        expect((await rpc('GET', '/task/count', 'ubob', { where: { projectId: 'papi', number: 7 } })).body).toEqual({ data: 1 });
    });

    it('a viewer may read but not edit; a hidden record is a 404; a sequential transaction rolls back as a whole', async () => {
        expect((await rpc('PATCH', '/task/update', 'ucarol', { where: { id: 't2' }, data: { title: 'x' } })).status).toBe(403);
        expect((await rpc('PATCH', '/task/update', 'ualice', { where: { id: 't5' }, data: { title: 'x' } })).status).toBe(404);
        const tx = await send(ours, 'rpc', 'POST', '/$transaction/sequential', 'ubob', {}, [
            { model: 'task', op: 'update', args: { where: { id: 't2' }, data: { title: 'changed' } } },
            { model: 'task', op: 'update', args: { where: { id: 't5' }, data: { title: 'stolen' } } },
        ]);
        expect(tx.status).toBe(404);
        expect(tx.body.error.failedOperation).toBe(1);
        expect((await rpc('GET', '/task/findUnique', 'ubob', { where: { id: 't2' }, select: { title: true } })).body).toEqual({ data: { title: 'Build' } });
    });

    it('a self-relation set replaces the children under the members\' update rule', async () => {
        const res = await rpc('PATCH', '/task/update', 'ubob', { where: { id: 't1' }, data: { children: { set: [{ id: 't2' }] } }, select: { children: { select: { id: true } } } });
        expect(res.body).toEqual({ data: { children: [{ id: 't2' }] } });
        expect((await rpc('GET', '/task/findUnique', 'ubob', { where: { id: 't3' }, select: { parentId: true } })).body).toEqual({ data: { parentId: null } });
        await rpc('PATCH', '/task/update', 'ubob', { where: { id: 't3' }, data: { parent: { connect: { id: 't1' } } } });
    });
});

describe('JSON:API flows', () => {
    it('creates a membership from its two relationships: the compound id in the document, the Location and every link', async () => {
        const res = await rest('POST', '/membership', 'ualice', {}, {
            data: { type: 'membership', attributes: { role: 'ADMIN' }, relationships: { space: { data: { type: 'space', id: 'sacme' } }, user: { data: { type: 'user', id: 'udave' } } } },
        });
        expect(res.status).toBe(201);
        expect(res.body.data.id).toBe('sacme_udave');
        expect(res.headers?.Location).toBe(`${ENDPOINT}/membership/sacme_udave`);
        expect(res.body.data.relationships.user).toEqual({
            links: { self: `${ENDPOINT}/membership/sacme_udave/relationships/user`, related: `${ENDPOINT}/membership/sacme_udave/user` },
            data: { type: 'user', id: 'udave' },
        });
        expect((await rest('GET', '/membership/sacme_udave/relationships/space', 'udave')).body.data).toEqual({ type: 'space', id: 'sacme' });
    });

    it('creates a task with a cuid id and relationships, follows its links, then deletes it', async () => {
        const res = await rest('POST', '/task', 'ubob', { include: 'parent' }, {
            data: { type: 'task', attributes: { number: 40, title: 'Sub', labels: { x: [1, 2] } }, relationships: { project: { data: { type: 'project', id: 'pweb' } }, parent: { data: { type: 'task', id: 't1' } } } },
        });
        expect(res.status).toBe(201);
        const id: string = res.body.data.id;
        expect(id).toMatch(/^c[a-z0-9]{20,}$/);
        expect(res.body.data.attributes).toMatchObject({ projectId: 'pweb', number: 40, title: 'Sub', labels: { x: [1, 2] }, parentId: 't1', status: 'TODO' });
        expect(res.body.included.map((r: Body) => r.id)).toEqual(['t1']);
        const self = new URL(res.body.data.links.self).pathname.replace(/^\/api/, '');
        expect((await rest('GET', `${self}/parent`, 'ubob')).body.data.id).toBe('t1');
        const children = await rest('GET', '/task/t1/relationships/children', 'ubob');
        expect(children.body.data.map((r: Body) => r.id).sort()).toEqual(['t2', 't3', id].sort());
        expect((await rest('DELETE', self, 'ubob')).status).toBe(403);
        expect((await rest('DELETE', self, 'ualice')).status).toBe(204);
    });

    it('relinks a time entry through its compound foreign key under the entry\'s update rule (checked before the update)', async () => {
        expect((await rest('PATCH', '/timeEntry/2/relationships/membership', 'ubob', {}, { data: { type: 'membership', id: 'sacme_ubob' } })).status).toBe(403);
        const moved = await rest('PATCH', '/timeEntry/1/relationships/membership', 'ubob', {}, { data: { type: 'membership', id: 'sacme_ucarol' } });
        expect(moved.body.data).toEqual({ type: 'membership', id: 'sacme_ucarol' });
        expect((await rest('GET', '/timeEntry/1', 'ualice')).body.data.attributes).toMatchObject({ spaceId: 'sacme', userId: 'ucarol', minutes: 30 });
        expect((await rest('PATCH', '/timeEntry/1/relationships/membership', 'ucarol', {}, { data: { type: 'membership', id: 'sacme_ubob' } })).status).toBe(200);
    });

    it('an owner changes a member\'s role; a member may not; removing a member cascades to their time entries', async () => {
        const patch = (user: string) => rest('PATCH', '/membership/sacme_ubob', user, {}, { data: { type: 'membership', id: 'sacme_ubob', attributes: { role: 'ADMIN' } } });
        expect((await patch('ucarol')).status).toBe(403);
        expect((await patch('ualice')).body.data.attributes.role).toBe('ADMIN');
        expect((await rest('DELETE', '/membership/sacme_ubob', 'ualice')).status).toBe(204);
        expect((await rest('GET', '/timeEntry', 'ualice')).body.meta.total).toBe(1);
        expect((await rest('GET', '/space/sacme', 'ubob')).status).toBe(404);
    });
});
