import { loadSchema, type TestSchema } from '../../support/schema';
import { ENDPOINT, makeApi } from './support';

/**
 * Links that must reach what they name. Compound ids under dividers of more than one character, or of characters that percent-escapes use. Found by a review
 * on 2026-12-01: with `idDivider: '--'`, the pairs `('x-', 'y')` and `('x', '-y')` were both `x---y`, so that the first
 * could not be reached and a DELETE of its own `links.self` deleted the second; with `idDivider: '5'` an id holding a
 * `%` was written `p%2%35q51`, which the handler then refused (2.22.3 escapes nothing). And a mapped model name the
 * `urlSegmentCharset` refuses literally (`my.users`): links wrote it so, and the handler refused them (400 invalid-path).
 */

const SCHEMA = `
model Pair {
  a     String
  b     String
  notes Note[]
  @@id([a, b])
  @@allow('all', true)
}
model Note {
  id   Int    @id
  pa   String
  pb   String
  pair Pair   @relation(fields: [pa, pb], references: [a, b])
  @@allow('all', true)
}
`;

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('REST: compound ids under other dividers', () => {
    let s: TestSchema;
    const path = (link: string) => new URL(link).pathname.slice(new URL(ENDPOINT).pathname.length);
    beforeAll(async () => {
        s = await loadSchema(SCHEMA);
        const pairs = [
            ['x-', 'y'],
            ['x', '-y'],
            ['p%q', '1'],
            ['5', '55'],
            ['55', '5'],
            ['%35', 'z'],
        ];
        await s.prisma.pair.createMany({ data: pairs.map(([a, b]) => ({ a, b })) });
        await s.prisma.note.createMany({ data: pairs.map(([pa, pb], i) => ({ id: i + 1, pa, pb })) });
    });
    afterAll(() => s.cleanup());

    it.each(['--', '5', '_', ':', 'ab'])('every pair gets an id of its own, and its links reach it (divider %s)', async (idDivider) => {
        const api = makeApi(s, { idDivider });
        const list = api.body(await api.get('/pair'));
        const ids = (list.data as Body[]).map((r) => r.id);
        expect(new Set(ids).size).toBe(6);
        for (const resource of list.data as Body[]) {
            for (const link of [resource.links.self, resource.relationships.notes.links.related]) {
                const res = await api.get(path(link));
                expect([link, res.status]).toEqual([link, 200]);
            }
            const self = api.body(await api.get(path(resource.links.self)));
            expect([self.data.attributes.a, self.data.attributes.b]).toEqual([resource.attributes.a, resource.attributes.b]);
            const filtered = api.body(await api.get('/note', { 'filter[pair]': String(resource.id) }));
            expect((filtered.data as Body[]).map((n) => [n.attributes.pa, n.attributes.pb])).toEqual([[resource.attributes.a, resource.attributes.b]]);
        }
        const notes = api.body(await api.get('/note', { include: 'pair' }));
        expect(notes.included).toHaveLength(6);
    });

    it('a DELETE of one pair through its own link leaves the other', async () => {
        const api = makeApi(s, { idDivider: '--' });
        const list = api.body(await api.get('/pair'));
        const first = (list.data as Body[]).find((r) => r.attributes.a === 'x-' && r.attributes.b === 'y');
        await s.prisma.note.deleteMany({ where: { pa: 'x-' } });
        const res = await api.call('DELETE', path(first.links.self));
        expect(res.status).toBe(204);
        expect(await s.prisma.pair.findMany({ where: { a: { startsWith: 'x' } }, orderBy: { a: 'asc' } })).toEqual([{ a: 'x', b: '-y' }]);
    });

    it('ids written with the default divider keep their form', async () => {
        const api = makeApi(s);
        const ids = (api.body(await api.get('/pair', { sort: 'a,b' })).data as Body[]).map((r) => r.id);
        expect(ids).toEqual(['%2535_z', '5_55', '55_5', 'p%25q_1', 'x_-y']); // ('x-', 'y') was deleted above
    });
});

describe('REST: a mapped model name under a urlSegmentCharset', () => {
    let s: TestSchema;
    beforeAll(async () => {
        s = await loadSchema(SCHEMA);
        await s.prisma.pair.create({ data: { a: 'a', b: 'b', notes: { create: { id: 1 } } } });
    });
    afterAll(() => s.cleanup());

    it('is written in links as the router takes it, and the links answer', async () => {
        const api = makeApi(s, { modelNameMapping: { Pair: 'my.pairs' }, urlSegmentCharset: 'a-zA-Z0-9-_~ %' });
        const list = api.body(await api.get('/my%2Epairs'));
        expect(list.links.self).toBe(`${ENDPOINT}/my%2Epairs`);
        const note = api.body(await api.get('/note/1'));
        const links = [list.data[0].links.self, list.data[0].relationships.notes.links.related, note.data.relationships.pair.links.related];
        for (const link of links) {
            const res = await api.get(new URL(link).pathname.slice(new URL(ENDPOINT).pathname.length));
            expect([link, res.status]).toEqual([link, 200]);
        }
        expect(list.data[0].type).toBe('pair'); // the mapping names the URL path, as in 2.x
    });
});
