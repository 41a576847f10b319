import { RestApiHandler } from '../../src/api/rest';
import { loadSchema, type TestSchema } from '../support/schema';
import { ASSET, labels, ONLY_IMAGES, SCHEMA, seed } from './delegate-concrete-rules';

/**
 * `PATCH` and `DELETE` of a `@@delegate` base type's resource (`/asset/2`), and changes of its relationships,
 * hold the concrete model's rules, as the same writes at `/image/2` do: through the base model ZenStack
 * 2.22 checks the base's rules only, and 2.x's handler deleted an image its model forbids deleting.
 */

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestSchema;
const handle = RestApiHandler({ endpoint: 'http://localhost/api' });

async function call(method: string, path: string, body?: unknown, user = 1): Promise<{ status: number; body: Body }> {
    const res = await handle({ method, path, query: {}, requestBody: body, prisma: s.enhance({ id: user }), modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger: null });
    return { status: res.status, body: JSON.parse(JSON.stringify(res.body ?? null)) };
}

const relabel = (type: string) => ({ data: { type, attributes: { label: 'new' } } });
const ALL_OLD = { 1: 'old', 2: 'old', 3: 'old', 4: 'old', 5: 'old', 6: 'old' };

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
});

afterAll(async () => {
    await s.cleanup();
});

beforeEach(async () => {
    await seed(s);
});

it('DELETE /asset/:id: refused for an image its model keeps, as at /image/:id; made for the others', async () => {
    for (const path of [`/image/${ASSET.keep}`, `/asset/${ASSET.keep}`]) {
        const res = await call('DELETE', path);
        expect([path, res.status, res.body.errors[0].code]).toEqual([path, 403, 'forbidden']);
    }
    expect((await call('DELETE', `/asset/${ASSET.png}`)).status).toBe(204);
    expect((await call('DELETE', `/asset/${ASSET.video}`)).status).toBe(204);
    expect((await call('DELETE', '/asset/99')).status).toBe(404);
    expect(Object.keys(await labels(s)).map(Number)).toEqual([ASSET.keep, ASSET.locked, ASSET.hiddenLocked, ASSET.hiddenPng]);
});

it('PATCH /asset/:id: refused for a locked image, as at /image/:id; made for the others, answered as the base type', async () => {
    for (const [path, type] of [[`/image/${ASSET.locked}`, 'image'], [`/asset/${ASSET.locked}`, 'asset']]) {
        expect([path, (await call('PATCH', path, relabel(type))).status]).toEqual([path, 403]);
    }
    const png = await call('PATCH', `/asset/${ASSET.png}`, relabel('asset'));
    expect(png.status).toBe(200);
    expect(png.body.data).toMatchObject({ type: 'asset', id: ASSET.png, attributes: { label: 'new', format: 'png' }, links: { self: `http://localhost/api/asset/${ASSET.png}` } });
    expect((await call('PATCH', `/asset/${ASSET.video}`, relabel('asset'))).status).toBe(200);
    expect((await call('PATCH', '/asset/99', relabel('asset'))).status).toBe(404);
    expect(await labels(s)).toEqual({ ...ALL_OLD, [ASSET.png]: 'new', [ASSET.video]: 'new' });
});

it('a record the user cannot read: 404 when its concrete model denies the write, as a write at /image/:id answers', async () => {
    // user 2 may update and delete any asset, but read only published ones
    expect((await call('PATCH', `/asset/${ASSET.hiddenLocked}`, relabel('asset'), 2)).status).toBe(404);
    expect((await call('PATCH', `/image/${ASSET.hiddenLocked}`, relabel('image'), 2)).status).toBe(404);
    expect(await labels(s)).toEqual(ALL_OLD);
});

it('relationship changes of a base-type resource are updates under the concrete model rules', async () => {
    // the owner is a foreign key of the asset: replacing it updates the asset's row
    const reassign = (type: string, id: number) => call('PATCH', `/${type}/${id}/relationships/owner`, { data: { type: 'user', id: 2 } });
    expect((await reassign('image', ASSET.locked)).status).toBe(403);
    expect((await reassign('asset', ASSET.locked)).status).toBe(403);
    const moved = await reassign('asset', ASSET.png);
    expect(moved.status).toBe(200);
    expect(moved.body.data).toEqual({ type: 'user', id: 2 });
    const owners = await s.prisma.asset.findMany({ where: { id: { in: [ASSET.locked, ASSET.png] } }, select: { id: true, ownerId: true }, orderBy: { id: 'asc' } });
    expect(owners).toEqual([
        { id: ASSET.png, ownerId: 2 },
        { id: ASSET.locked, ownerId: 1 },
    ]);
});

it('an upsert on the base type updates under the concrete model rules; a record the user cannot see is created, which the base type refuses', async () => {
    const upsert = (id: number, user = 1) =>
        call('POST', '/asset', { data: { type: 'asset', attributes: { id, label: 'new', ownerId: user } }, meta: { operation: 'upsert', matchFields: ['id'] } }, user);
    expect((await upsert(ASSET.locked)).status).toBe(403);
    const png = await upsert(ASSET.png);
    expect(png.status).toBe(201);
    expect(png.body.data).toMatchObject({ type: 'asset', id: ASSET.png, attributes: { label: 'new', format: 'png' } });
    const hidden = await upsert(ASSET.hiddenPng, 2);
    expect(hidden.status).toBe(400);
    expect(hidden.body.errors[0]).toMatchObject({ code: 'invalid-payload', detail: expect.stringContaining('cannot be created directly') });
    expect(await labels(s)).toEqual({ ...ALL_OLD, [ASSET.png]: 'new' });
});

it('links of assets from the user side (they rewrite the asset rows) are a 400 that says where to change them', async () => {
    const locked = [{ type: 'asset', id: ASSET.locked }];
    const added = await call('POST', '/user/2/relationships/assets', { data: locked });
    expect(added.status).toBe(400);
    expect(added.body.errors[0]).toMatchObject({ code: 'invalid-payload', detail: expect.stringContaining("change it from the asset's side") });
    expect((await call('DELETE', '/user/1/relationships/assets', { data: locked })).status).toBe(400);
    const patched = await call('PATCH', '/user/2', { data: { type: 'user', relationships: { assets: { data: locked } } } });
    expect(patched.status).toBe(400);
    expect(patched.body.errors[0].source).toEqual({ pointer: '/data/relationships/assets/data' });
    expect((await call('POST', '/user', { data: { type: 'user', id: 3, relationships: { assets: { data: locked } } } })).status).toBe(400);
    const owners = await s.prisma.asset.findMany({ select: { ownerId: true } });
    expect(owners.every((o: { ownerId: number }) => o.ownerId === 1)).toBe(true);
    expect(await s.prisma.user.count()).toBe(2);
});

describe('a concrete type without any delete rule beside one with its own', () => {
    // the base model has no delete rule; images may be deleted unless kept; videos may never be
    let base: TestSchema;
    beforeAll(async () => {
        base = s;
        s = await loadSchema(ONLY_IMAGES);
    });
    beforeEach(async () => {
        await seed(s);
    });
    afterAll(async () => {
        await s.cleanup();
        s = base;
    });

    it('DELETE /asset/:id deletes an image its model lets go (204), and refuses the others with nothing deleted', async () => {
        expect((await call('DELETE', `/asset/${ASSET.png}`)).status).toBe(204);
        expect((await call('DELETE', `/asset/${ASSET.keep}`)).status).toBe(403);
        expect((await call('DELETE', `/asset/${ASSET.video}`)).status).toBe(403);
        expect(Object.keys(await labels(s)).map(Number)).toEqual([ASSET.keep, ASSET.locked, ASSET.video, ASSET.hiddenLocked, ASSET.hiddenPng]);
    });
});

it('a base type whose resource id is another unique field (externalIdMapping) is written through its concrete type by id', async () => {
    const bySlug = RestApiHandler({ endpoint: 'http://localhost/api', externalIdMapping: { asset: 'slug' } });
    const patch = async (slug: string) =>
        bySlug({ method: 'PATCH', path: `/asset/${slug}`, query: {}, requestBody: relabel('asset'), prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger: null });
    expect((await patch(`locked-${ASSET.locked}`)).status).toBe(403);
    expect((await patch(`png-${ASSET.png}`)).status).toBe(200);
    expect(await labels(s)).toEqual({ ...ALL_OLD, [ASSET.png]: 'new' });
});
