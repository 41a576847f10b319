import { RestApiHandler as UpstreamRestApiHandler } from '@zenstackhq/server/api/rest';
import { RestApiHandler } from '../../../src/api/rest';
import type { HandleRequestFn } from '../../../src/types';
import { delegateSchema } from '../../support/delegate-schema';
import { describePg, requirePg } from '../../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../../support/schema';
import { at, ENDPOINT } from './support';

/**
 * ZenStack `@@delegate` models (polymorphism): a record of the base model is a row of one concrete
 * model, and reading it without a fieldset answers the concrete model's attributes too, as
 * `@zenstackhq/server` 2.x does (the ORM merges them in when the read names no fields).
 */

const SCHEMA = delegateSchema(`
model Video extends Asset {
  duration   Int
  recordedAt DateTime
}

model Image extends Asset {
  format String
  bytes  BigInt
}

type Cue {
  at DateTime
}

model Clip extends Asset {
  cue Cue? @json
}
`);

const RECORDED = new Date('2024-03-01T12:00:00.000Z');

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Call = (method: string, path: string, query?: Record<string, string>, body?: unknown, user?: number) => Promise<{ status: number; body: Body }>;

function caller(s: TestSchema, handle: HandleRequestFn): Call {
    return async (method, path, query = {}, body, user = 1) => {
        const res = await handle({ method, path, query, requestBody: body, prisma: s.enhance({ id: user }), modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger: null });
        return { status: res.status, body: JSON.parse(JSON.stringify(res.body ?? null)) };
    };
}

async function seed(s: TestSchema): Promise<void> {
    await s.prisma.user.create({ data: { id: 1, name: 'Ann' } });
    await s.prisma.user.create({ data: { id: 2, name: 'Ben' } });
    const ann = s.enhance({ id: 1 }) as Body;
    const ben = s.enhance({ id: 2 }) as Body;
    await ann.video.create({ data: { id: 1, label: 'first', published: true, owner: { connect: { id: 1 } }, duration: 90, recordedAt: RECORDED } });
    await ann.image.create({ data: { id: 2, label: 'second', owner: { connect: { id: 1 } }, format: 'png', bytes: 9007199254740993n } });
    await ben.video.create({ data: { id: 3, owner: { connect: { id: 2 } }, duration: 30, recordedAt: RECORDED } });
    await s.prisma.note.create({ data: { id: 1, text: 'cut', assetId: 1, userId: 2 } });
}

const VIDEO_1 = { published: true, ownerId: 1, assetType: 'Video', label: 'first', duration: 90, recordedAt: RECORDED.toISOString() };
const IMAGE_2 = { published: false, ownerId: 1, assetType: 'Image', label: 'second', format: 'png', bytes: '9007199254740993' };

function defineDelegateTests(provider: Provider): void {
    let s: TestSchema;
    let call: Call;
    beforeAll(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return; // skipped, reported by describePg
        s = await loadSchema(SCHEMA, { provider });
        await seed(s);
        call = caller(s, RestApiHandler({ endpoint: ENDPOINT }));
    });
    afterAll(() => s?.cleanup());

    it('lists base records with their concrete attributes, tagged by their own types, under the policy', async () => {
        if (!s) return;
        const res = await call('GET', '/asset');
        expect(res.status).toBe(200);
        // Ben's unpublished video is not readable by Ann
        expect(res.body.data.map((r: Body) => [r.type, r.id, r.attributes])).toEqual([
            ['asset', 1, VIDEO_1],
            ['asset', 2, IMAGE_2],
        ]);
        expect(res.body.meta).toEqual({ total: 2, serialization: { values: { 'data.0.attributes.recordedAt': ['Date'], 'data.1.attributes.bytes': ['bigint'] } } });
        expect(res.body.data[0].relationships.owner).toEqual({ links: { self: at('/asset/1/relationships/owner'), related: at('/asset/1/owner') }, data: { type: 'user', id: 1 } });
    });

    it('reads one base record, and a filtered, sorted page, whole', async () => {
        if (!s) return;
        const one = await call('GET', '/asset/2');
        expect(one.body.data.attributes).toEqual(IMAGE_2);
        expect(one.body.meta.serialization.values).toEqual({ 'data.attributes.bytes': ['bigint'] });
        const page = await call('GET', '/asset', { 'filter[assetType]': 'Video', sort: '-id' }, undefined, 2);
        expect(page.body.data.map((r: Body) => [r.id, r.attributes.duration])).toEqual([
            [3, 30],
            [1, 90],
        ]);
    });

    it('keeps a sparse fieldset of the base type to the fields it names', async () => {
        if (!s) return;
        const res = await call('GET', '/asset', { 'fields[asset]': 'assetType,owner' });
        expect(res.body.data.map((r: Body) => r.attributes)).toEqual([{ assetType: 'Video' }, { assetType: 'Image' }]);
        expect(res.body.data[0].relationships.owner.data).toEqual({ type: 'user', id: 1 });
        expect(res.body.meta.serialization).toBeUndefined();
    });

    it('includes base records whole, through to-many and to-one relationships', async () => {
        if (!s) return;
        const user = await call('GET', '/user/1', { include: 'assets.notes' });
        const included = Object.fromEntries(user.body.included.map((r: Body) => [`${r.type}:${r.id}`, r.attributes]));
        expect(included).toEqual({ 'asset:1': VIDEO_1, 'asset:2': IMAGE_2, 'note:1': { text: 'cut', assetId: 1, userId: 2 } });
        const notes = await call('GET', '/note', { include: 'asset' });
        expect(notes.body.included.map((r: Body) => r.attributes)).toEqual([VIDEO_1]);
        expect(notes.body.meta.serialization.values).toEqual({ 'included.0.attributes.recordedAt': ['Date'] });
    });

    it('answers related base records whole (to-many page, to-one, one by id)', async () => {
        if (!s) return;
        const page = await call('GET', '/user/1/assets');
        expect(page.body.data.map((r: Body) => r.attributes)).toEqual([VIDEO_1, IMAGE_2]);
        expect(page.body.meta.total).toBe(2);
        const toOne = await call('GET', '/note/1/asset');
        expect(toOne.body.data.attributes).toEqual(VIDEO_1);
        const byId = await call('GET', '/user/1/assets/2');
        expect(byId.body.data.attributes).toEqual(IMAGE_2);
    });

    it('answers an update through the base type with the whole record, and concrete types as before', async () => {
        if (!s) return;
        const res = await call('PATCH', '/asset/2', {}, { data: { type: 'asset', id: '2', attributes: { published: true } } });
        expect(res.status).toBe(200);
        expect(res.body.data.attributes).toEqual({ ...IMAGE_2, published: true });
        const video = await call('GET', '/video/1');
        expect(video.body.data.attributes).toEqual(VIDEO_1);
        expect(video.body.data.type).toBe('video');
        // a concrete field is not an attribute of the base type in requests
        const filtered = await call('GET', '/asset', { 'filter[duration]': '90' });
        expect(filtered.status).toBe(400);
        expect(filtered.body.errors[0].code).toBe('invalid-filter');
        // records are created through their concrete type
        const created = await call('POST', '/asset', {}, { data: { type: 'asset', id: '9', attributes: { assetType: 'Video', published: true }, relationships: { owner: { data: { type: 'user', id: '1' } } } } });
        expect(created.body.errors[0]).toMatchObject({ status: 400, code: 'invalid-payload' });
        expect(await s.prisma.asset.count()).toBe(3);
    });

    it('a relationship to the base takes identifiers of the concrete types too (as 2.x), of records of that type only', async () => {
        if (!s) return;
        const linked = await call('PATCH', '/note/1/relationships/asset', {}, { data: { type: 'image', id: '2' } });
        expect([linked.status, linked.body.data]).toEqual([200, { type: 'asset', id: 2 }]);
        expect(await s.prisma.note.findUnique({ where: { id: 1 }, select: { assetId: true } })).toEqual({ assetId: 2 });
        // asset 2 is an image, not a video: not found, as a missing one, and nothing changes
        const wrong = await call('PATCH', '/note/1/relationships/asset', {}, { data: { type: 'video', id: '2' } });
        expect([wrong.status, wrong.body.errors[0].code, wrong.body.errors[0].source]).toEqual([404, 'not-found', { pointer: '/data' }]);
        expect(await s.prisma.note.findUnique({ where: { id: 1 }, select: { assetId: true } })).toEqual({ assetId: 2 });
        const created = await call('POST', '/note', {}, {
            data: { type: 'note', id: '5', relationships: { asset: { data: { type: 'video', id: '1' } }, user: { data: { type: 'user', id: '1' } } } },
        });
        expect([created.status, created.body.data?.relationships.asset.data]).toEqual([201, { type: 'asset', id: 1 }]);
        const added = await call('POST', '/user/1/relationships/assets', {}, { data: [{ type: 'video', id: '1' }, { type: 'asset', id: '2' }] });
        expect(added.status).toBe(200);
        // a member already there, named as a kind it is not: not found, as for a link
        const wrongMember = await call('POST', '/user/1/relationships/assets', {}, { data: [{ type: 'video', id: '2' }] });
        expect([wrongMember.status, wrongMember.body.errors?.[0].source]).toEqual([404, { pointer: '/data/0' }]);
        const replaced = await call('PATCH', '/user/1/relationships/assets', {}, { data: [{ type: 'video', id: '1' }, { type: 'video', id: '2' }] });
        expect([replaced.status, replaced.body.errors?.[0]]).toEqual([404, expect.objectContaining({ source: { pointer: '/data/1' } })]);
        // named as two kinds, in either order: a contradiction (the second was dropped as a duplicate: 200 or 404 by order)
        for (const data of [
            [{ type: 'image', id: '2' }, { type: 'video', id: '2' }],
            [{ type: 'video', id: '2' }, { type: 'image', id: '2' }],
        ]) {
            const twice = await call('POST', '/user/1/relationships/assets', {}, { data });
            expect([twice.status, twice.body.errors?.[0].source]).toEqual([400, { pointer: '/data/1' }]);
        }
        // the base type beside a kind is the kind, either way round
        const asVideo = await call('POST', '/user/1/relationships/assets', {}, { data: [{ type: 'asset', id: '2' }, { type: 'video', id: '2' }] });
        expect([asVideo.status, asVideo.body.errors?.[0].source]).toEqual([404, { pointer: '/data/1' }]);
        const same = await call('POST', '/user/1/relationships/assets', {}, { data: [{ type: 'image', id: '2' }, { type: 'asset', id: '2' }] });
        expect(same.status).toBe(200);
        // a type outside the hierarchy is still a 400
        const other = await call('PATCH', '/note/1/relationships/asset', {}, { data: { type: 'user', id: '1' } });
        expect([other.status, other.body.errors[0].source]).toEqual([400, { pointer: '/data/type' }]);
    });

    it('tags the typed values inside a concrete typed JSON field read through the base type', async () => {
        if (!s) return;
        const at = '2024-04-01T08:00:00.000Z';
        await (s.enhance({ id: 1 }) as Body).clip.create({ data: { id: 10, owner: { connect: { id: 1 } }, cue: { at } } });
        const res = await call('GET', '/asset/10');
        expect(res.body.data.attributes.cue).toEqual({ at });
        expect(res.body.meta.serialization).toEqual({ values: { 'data.attributes.cue.at': ['Date'] } });
    });
}

describe('REST: @@delegate base models answer the attributes of each concrete model [sqlite]', () => defineDelegateTests('sqlite'));
describePg('REST: @@delegate base models answer the attributes of each concrete model', () => defineDelegateTests('postgresql'));

describe('REST: @@delegate reads carry the attributes @zenstackhq/server 2.22.3 answers', () => {
    const sides: { name: string; s?: TestSchema; call?: Call; handle: HandleRequestFn }[] = [
        { name: 'ours', handle: RestApiHandler({ endpoint: ENDPOINT }) },
        { name: 'upstream', handle: UpstreamRestApiHandler({ endpoint: ENDPOINT }) as unknown as HandleRequestFn },
    ];
    beforeAll(async () => {
        for (const side of sides) {
            side.s = await loadSchema(SCHEMA);
            await seed(side.s);
            side.call = caller(side.s, side.handle);
        }
    });
    afterAll(async () => {
        for (const side of sides) await side.s?.cleanup();
    });

    /** Every resource of a document, by type and id, with its attributes. */
    const attributesOf = (body: Body): Record<string, unknown> => {
        const data = Array.isArray(body.data) ? body.data : [body.data];
        return Object.fromEntries([...data, ...(body.included ?? [])].map((r: Body) => [`${r.type}:${r.id}`, r.attributes]));
    };

    it.each([
        ['/asset', {}],
        ['/asset/1', {}],
        ['/asset/2', {}],
        ['/user/1', { include: 'assets' }],
        ['/note', { include: 'asset' }],
        ['/user/1/assets', {}],
        ['/video', {}],
    ])('GET %s %j', async (path, query) => {
        const [ours, upstream] = await Promise.all(sides.map((side) => side.call!('GET', path, query as Record<string, string>)));
        expect(ours.status).toBe(200);
        expect(upstream.status).toBe(200);
        expect(attributesOf(ours.body)).toEqual(attributesOf(upstream.body));
        expect(ours.body.meta?.serialization).toEqual(upstream.body.meta?.serialization);
    });
});
