import { RestApiHandler } from '../../src/api/rest';
import { delegateSchema } from '../support/delegate-schema';
import { loadSchema, type TestSchema } from '../support/schema';
import { ASSET, ONLY_IMAGES, seed } from './delegate-concrete-rules';
import { rpcAs } from './rpc-call';

/** Three defects of writes and reads through a `@@delegate` base model, each checked through both handlers. */

const rest = RestApiHandler({ endpoint: 'http://localhost/api' });
const restAs = (s: TestSchema, user: number | undefined, method: string, path: string, requestBody?: unknown, zod = true) =>
    rest({ method, path, query: {}, requestBody, prisma: s.enhance(user === undefined ? undefined : { id: user }), modelMeta: s.modelMeta, zodSchemas: zod ? s.zodSchemas : undefined, logger: null });

describe('a field protected in one concrete model, plain in another of the same name', () => {
    // Image.secret is the owner's; Audio.secret is anybody's. The REST handler planned `secret` from Audio and read it
    // from every record of the base type: an image's secret reached everyone who may read the image.
    let s: TestSchema;
    beforeAll(async () => {
        s = await loadSchema(
            delegateSchema(`
model Audio extends Asset {
  secret Int @default(5)
}
model Image extends Asset {
  secret String @default('') @allow('read', auth() == owner)
}`),
        );
        await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
        const owner = s.enhance({ id: 1 }) as never as Record<string, { create(args: unknown): Promise<unknown> }>;
        await owner.audio.create({ data: { id: 1, published: true, ownerId: 1 } });
        await owner.image.create({ data: { id: 2, published: true, ownerId: 1, secret: 'TOP-SECRET' } });
    });
    afterAll(() => s.cleanup());

    it('is in no JSON:API document of the base type, for another user or anonymous', async () => {
        for (const user of [2, undefined]) {
            for (const path of ['/asset', '/asset/2', '/user/1/assets']) {
                const res = await restAs(s, user, 'GET', path);
                expect([user, path, res.status]).toEqual([user, path, 200]);
                expect(JSON.stringify(res.body)).not.toContain('TOP-SECRET');
            }
            const included = await rest({ method: 'GET', path: '/user/1', query: { include: 'assets' }, prisma: s.enhance(user === undefined ? undefined : { id: user }), modelMeta: s.modelMeta, logger: null });
            expect(JSON.stringify(included.body)).not.toContain('TOP-SECRET');
        }
    });

    it('stays readable through the concrete types, by whom their rules allow', async () => {
        const image = await restAs(s, 1, 'GET', '/image/2');
        expect((image.body as { data: { attributes: Record<string, unknown> } }).data.attributes.secret).toBe('TOP-SECRET');
        const audio = await restAs(s, 2, 'GET', '/audio/1');
        expect((audio.body as { data: { attributes: Record<string, unknown> } }).data.attributes.secret).toBe(5);
    });
});

describe('the discriminator of a record is not written', () => {
    // PATCH /asset/2 { assetType: 'Video' } of an image stored "Video" in its base row, its row still in the image table
    let s: TestSchema;
    beforeAll(async () => {
        s = await loadSchema(
            delegateSchema(`
model Video extends Asset {
  duration Int @default(0)
}
model Image extends Asset {
  format String @default('png')
}`),
        );
        await s.prisma.user.create({ data: { id: 1 } });
        await (s.enhance({ id: 1 }) as never as Record<string, { create(args: unknown): Promise<unknown> }>).image.create({ data: { id: 2, ownerId: 1 } });
    });
    afterAll(() => s.cleanup());
    const stored = async () => (await s.prisma.asset.findUnique({ where: { id: 2 } }))?.assetType;

    it.each([true, false])('through REST, with zod %s: a 400 pointing at it, nothing written', async (zod) => {
        for (const type of ['asset', 'image']) {
            const res = await restAs(s, 1, 'PATCH', `/${type}/2`, { data: { type, id: '2', attributes: { assetType: 'Video' } } }, zod);
            expect([type, res.status, (res.body as { errors: Array<{ source?: unknown }> }).errors[0].source]).toEqual([type, 400, { pointer: '/data/attributes/assetType' }]);
        }
        const created = await restAs(s, 1, 'POST', '/video', { data: { type: 'video', id: '3', attributes: { assetType: 'Image', ownerId: 1 } } }, zod);
        expect(created.status).toBe(400);
        expect(await stored()).toBe('Image');
        expect(await s.prisma.asset.count()).toBe(1);
    });

    it('through RPC, nested writes too: a 400, nothing written', async () => {
        const attempts: [string, string, unknown][] = [
            ['PUT', '/asset/update', { where: { id: 2 }, data: { assetType: 'Video' } }],
            ['PUT', '/asset/updateMany', { data: { assetType: 'Video' } }],
            ['PUT', '/user/update', { where: { id: 1 }, data: { assets: { update: { where: { id: 2 }, data: { assetType: 'Video' } } } } }],
        ];
        for (const [method, path, args] of attempts) {
            const res = await rpcAs(s, { id: 1 }, method, path, args);
            expect([path, res.status, res.body.error.message]).toEqual([path, 400, expect.stringMatching(/assetType" must be absent: it is the discriminator/)]);
        }
        expect(await stored()).toBe('Image');
    });
});

describe('RPC deleteMany through a base type one of whose concrete models allows no delete', () => {
    // only images may be deleted (format != keep); the RPC handler refused the whole deleteMany (403) where the REST
    // handler's deletes through the base type skip the concrete model that allows none
    let s: TestSchema;
    beforeAll(async () => {
        s = await loadSchema(ONLY_IMAGES);
    });
    beforeEach(() => seed(s));
    afterAll(() => s.cleanup());

    it('deletes the rows the concrete models allow, and answers their count', async () => {
        const res = await rpcAs(s, { id: 1 }, 'DELETE', '/asset/deleteMany', { where: { assetType: 'Image' } });
        expect([res.status, res.body.data]).toEqual([200, { count: 4 }]);
        const left = (await s.prisma.asset.findMany({ orderBy: { id: 'asc' }, select: { id: true } })).map((a: { id: number }) => a.id);
        expect(left).toEqual([ASSET.keep, ASSET.video]);
    });
});
