import { ALICE } from '../client/support/seed';
import { seededBlogEach } from './support';

/**
 * A Json null marker (`["custom","DbNull"]`, `JsonNull`, `AnyNull`) stands for a whole Json value: a Json field's, or
 * the operand of a Json filter. One tagged at a place inside a value was swapped for Prisma's null object there,
 * which Prisma writes as its name: `{ a: <DbNull> }` stored `{ "a": "DbNull" }`, and a filter matched rows holding
 * that text. Such a marker is a 400 now, and nothing is written.
 */

const blog = seededBlogEach({ id: ALICE });

const DB_NULL = [['custom', 'DbNull']];
const JSON_NULL = [['custom', 'JsonNull']];

const jsonOf = async (id: string) => (await blog.s.prisma.allTypes.findUnique({ where: { id }, select: { json: true } }))?.json;

describe('a Json null marker inside a Json value', () => {
    it('in a create is a 400, and nothing is created', async () => {
        const res = await blog.rpc('POST', '/allTypes/create', {
            body: { data: { id: 'n1', json: { a: null, list: [null] } }, meta: { serialization: { values: { 'data.json.a': DB_NULL, 'data.json.list.0': JSON_NULL } } } },
        });
        expect([res.status, res.body.error?.message]).toEqual([400, expect.stringMatching(/"data\.json\.a" must be no Json null marker/)]);
        expect(await jsonOf('n1')).toBeUndefined();
    });

    it('in an update, an upsert and a nested create is a 400, and nothing changes', async () => {
        const before = await jsonOf('typed');
        const attempts: [string, string, Record<string, unknown>, string][] = [
            ['PATCH', '/allTypes/update', { where: { id: 'typed' }, data: { json: { deep: { x: null } } } }, 'data.json.deep.x'],
            ['PATCH', '/allTypes/updateMany', { where: { id: 'typed' }, data: { json: [null] } }, 'data.json.0'],
            ['POST', '/allTypes/upsert', { where: { id: 'typed' }, create: { id: 'typed' }, update: { json: { y: null } } }, 'update.json.y'],
            ['PATCH', '/user/update', { where: { id: ALICE }, data: { allTypes: { create: { id: 'n2', json: { z: null } } } } }, 'data.allTypes.create.json.z'],
        ];
        for (const [method, path, args, at] of attempts) {
            const res = await blog.rpc(method, path, { body: { ...args, meta: { serialization: { values: { [at]: DB_NULL } } } } });
            expect([path, res.status, res.body.error?.message]).toEqual([path, 400, expect.stringContaining(`"${at}" must be no Json null marker`)]);
        }
        expect(await jsonOf('typed')).toEqual(before);
        expect(await jsonOf('n2')).toBeUndefined();
    });

    it('in a filter operand is a 400, not a match on the text "DbNull"', async () => {
        await blog.s.prisma.allTypes.create({ data: { id: 'text', json: { a: 'DbNull' } } });
        const res = await blog.rpc('DELETE', '/allTypes/deleteMany', {
            q: { where: { json: { equals: { a: null } } } },
            meta: { serialization: { values: { 'where.json.equals.a': DB_NULL } } },
        });
        expect([res.status, res.body.error?.message]).toEqual([400, expect.stringContaining('"where.json.equals.a" must be no Json null marker')]);
        expect(await jsonOf('text')).toEqual({ a: 'DbNull' });
    });
});

describe('a Json null marker for a whole value still works', () => {
    it('as a field value and as a filter operand', async () => {
        const created = await blog.rpc('POST', '/allTypes/create', { body: { data: { id: 'whole', json: null }, meta: { serialization: { values: { 'data.json': JSON_NULL } } } } });
        expect(created.status).toBe(201);
        const found = await blog.rpc('GET', '/allTypes/findMany', {
            q: { where: { json: { equals: null } }, select: { id: true } },
            meta: { serialization: { values: { 'where.json.equals': JSON_NULL } } },
        });
        expect([found.status, found.body.data]).toEqual([200, [{ id: 'whole' }]]);
    });
});
