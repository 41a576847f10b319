import { rpcCaller, type RpcCaller } from '../rpc/support';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { ASSET, labels, SCHEMA, seed } from './delegate-concrete-rules';

/**
 * ZenStack 2.22 checks an update or delete made through a `@@delegate` base model against the base's rules
 * only: `asset.delete` of an image its own model forbids deleting went through (so did 2.x's handler). The
 * handler makes such writes through the concrete models, and refuses nested ones.
 */

const ALL_OLD = { 1: 'old', 2: 'old', 3: 'old', 4: 'old', 5: 'old', 6: 'old' };

function defineTests(provider: Provider): void {
    let s: TestSchema;
    let ann: RpcCaller;
    let ben: RpcCaller;

    beforeAll(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return; // skipped, reported by describePg
        s = await loadSchema(SCHEMA, { provider });
        ann = rpcCaller(s, { user: { id: 1 } });
        ben = rpcCaller(s, { user: { id: 2 } });
    });

    afterAll(async () => {
        await s?.cleanup();
    });

    beforeEach(async () => {
        if (s) await seed(s);
    });

    describe('through the base model, the concrete model rules hold', () => {
        it('delete: refused for an image its model keeps, made for the others', async () => {
            if (!s) return;
            const kept = await ann('DELETE', '/asset/delete', { q: { where: { id: ASSET.keep } } });
            expect(kept.status).toBe(403);
            expect(kept.body.error).toMatchObject({ rejectedByPolicy: true, code: 'P2004' });
            const png = await ann('DELETE', '/asset/delete', { q: { where: { id: ASSET.png } } });
            expect(png.status).toBe(200);
            expect(png.body.data).toMatchObject({ id: ASSET.png, assetType: 'Image', format: 'png' });
            expect((await ann('DELETE', '/asset/delete', { q: { where: { id: ASSET.video } } })).status).toBe(200);
            expect(Object.keys(await labels(s)).map(Number)).toEqual([ASSET.keep, ASSET.locked, ASSET.hiddenLocked, ASSET.hiddenPng]);
        });

        it('update: refused for a locked image, made for the others, answered in the base shape', async () => {
            if (!s) return;
            const locked = await ann('PATCH', '/asset/update', { body: { where: { id: ASSET.locked }, data: { label: 'new' } } });
            expect(locked.status).toBe(403);
            const png = await ann('PATCH', '/asset/update', { body: { where: { id: ASSET.png }, data: { label: 'new' }, select: { id: true, label: true } } });
            expect(png.body).toEqual({ data: { id: ASSET.png, label: 'new' } });
            const video = await ann('PUT', '/asset/update', { body: { where: { id: ASSET.video }, data: { label: 'new' } } });
            expect(video.body.data).toMatchObject({ id: ASSET.video, assetType: 'Video', label: 'new', duration: 0 });
            expect(await labels(s)).toEqual({ ...ALL_OLD, [ASSET.png]: 'new', [ASSET.video]: 'new' });
        });

        it('upsert of an existing record: its update under the concrete rules', async () => {
            if (!s) return;
            const args = (id: number) => ({ where: { id }, create: { id, ownerId: 1 }, update: { label: 'new' } });
            expect((await ann('POST', '/asset/upsert', { body: args(ASSET.locked) })).status).toBe(403);
            expect((await ann('POST', '/asset/upsert', { body: args(ASSET.png) })).status).toBe(200);
            expect(await labels(s)).toEqual({ ...ALL_OLD, [ASSET.png]: 'new' });
        });

        it('updateMany and deleteMany: only the rows each concrete model allows', async () => {
            if (!s) return;
            const updated = await ann('PATCH', '/asset/updateMany', { body: { data: { label: 'new' } } });
            expect(updated.body).toEqual({ data: { count: 4 } });
            expect(await labels(s)).toEqual({ 1: 'new', 2: 'new', 3: 'old', 4: 'new', 5: 'old', 6: 'new' });
            const deleted = await ann('DELETE', '/asset/deleteMany', { q: { where: { label: 'new' } } });
            expect(deleted.body).toEqual({ data: { count: 3 } });
            expect(Object.keys(await labels(s)).map(Number)).toEqual([ASSET.keep, ASSET.locked, ASSET.hiddenLocked]);
        });

        it('a limit on updateMany or deleteMany is refused (a concrete model ignores it on base fields)', async () => {
            if (!s) return;
            const update = await ann('PATCH', '/asset/updateMany', { body: { data: { label: 'new' }, limit: 1 } });
            expect(update.status).toBe(400);
            expect(update.body.error.message).toContain('"limit" is not offered on updateMany of Asset records');
            expect((await ann('DELETE', '/asset/deleteMany', { q: { limit: 1 } })).status).toBe(400);
            expect(await labels(s)).toEqual(ALL_OLD);
        });

        it('a record named by a unique field of the base model is written through its concrete model by id', async () => {
            if (!s) return;
            const locked = await ann('PATCH', '/asset/update', { body: { where: { slug: `locked-${ASSET.locked}` }, data: { label: 'new' } } });
            expect(locked.status).toBe(403);
            const png = await ann('PATCH', '/asset/update', { body: { where: { slug: `png-${ASSET.png}` }, data: { label: 'new' }, select: { id: true, label: true } } });
            expect(png.body).toEqual({ data: { id: ASSET.png, label: 'new' } });
            expect((await ann('DELETE', '/asset/delete', { q: { where: { slug: `keep-${ASSET.keep}` } } })).status).toBe(403);
            expect(await labels(s)).toEqual({ ...ALL_OLD, [ASSET.png]: 'new' });
        });

        it('a record the user cannot read: written under its concrete model rules, as ZenStack answers such a write', async () => {
            if (!s) return;
            // Ben may update any asset, but read only published ones
            const locked = await ben('PATCH', '/asset/update', { body: { where: { id: ASSET.hiddenLocked }, data: { label: 'new' } } });
            expect(locked.status).toBe(404); // denied, on a record Ben cannot see: not found, as elsewhere
            const png = await ben('PATCH', '/asset/update', { body: { where: { id: ASSET.hiddenPng }, data: { label: 'new' } } });
            expect(png.status).toBe(403);
            expect(png.body.error.reason).toBe('RESULT_NOT_READABLE');
            expect(await labels(s)).toEqual({ ...ALL_OLD, [ASSET.hiddenPng]: 'new' });
            const missing = await ben('PATCH', '/asset/update', { body: { where: { id: 99 }, data: { label: 'new' } } });
            expect(missing.status).toBe(404);
        });

        it('an upsert of a record the user cannot read: its update under the concrete rules, or the create a base model refuses', async () => {
            if (!s) return;
            const args = (id: number) => ({ where: { id }, create: { id, ownerId: 2 }, update: { label: 'new' } });
            const locked = await ben('POST', '/asset/upsert', { body: args(ASSET.hiddenLocked) });
            expect(locked.status).toBe(400);
            expect(locked.body.error.message).toContain('cannot be created directly');
            const png = await ben('POST', '/asset/upsert', { body: args(ASSET.hiddenPng) });
            expect(png.status).toBe(403);
            expect(png.body.error.reason).toBe('RESULT_NOT_READABLE');
            expect(await labels(s)).toEqual({ ...ALL_OLD, [ASSET.hiddenPng]: 'new' });
        });

        it('updateManyAndReturn is refused (ZenStack would make it on the base table, unchecked)', async () => {
            if (!s) return;
            const res = await ann('PATCH', '/asset/updateManyAndReturn', { body: { data: { label: 'new' } } });
            expect(res.status).toBe(400);
            expect(res.body.error.message).toContain('use updateMany');
            expect(await labels(s)).toEqual(ALL_OLD);
        });

        it('in a transaction', async () => {
            if (!s) return;
            const res = await ann('POST', '/$transaction/sequential', {
                body: [
                    { model: 'Asset', op: 'update', args: { where: { id: ASSET.png }, data: { label: 'new' } } },
                    { model: 'Asset', op: 'delete', args: { where: { id: ASSET.keep } } },
                ],
            });
            expect(res.status).toBe(403);
            expect(await labels(s)).toEqual(ALL_OLD);
        });
    });

    describe('nested writes to the base model', () => {
        it.each([
            ['delete', { assets: { delete: { id: ASSET.keep } } }],
            ['deleteMany', { assets: { deleteMany: {} } }],
            ['update', { assets: { update: { where: { id: ASSET.locked }, data: { label: 'new' } } } }],
            ['updateMany', { assets: { updateMany: { where: {}, data: { label: 'new' } } } }],
        ])('a nested %s is refused and nothing is written', async (op, data) => {
            if (!s) return;
            const res = await ann('PATCH', '/user/update', { body: { where: { id: 1 }, data } });
            expect(res.status).toBe(400);
            expect(res.body.error.message).toContain(`a nested ${op} through "assets" writes Asset records`);
            expect(await labels(s)).toEqual(ALL_OLD);
        });

        it.each([
            ['connect', { assets: { connect: { id: ASSET.locked } } }],
            ['disconnect', { assets: { disconnect: { id: ASSET.locked } } }],
            ['set', { assets: { set: [] } }],
        ])('a nested %s from the side without the key (it rewrites the asset rows) is refused', async (op, data) => {
            if (!s) return;
            const res = await ann('PATCH', '/user/update', { body: { where: { id: op === 'connect' ? 2 : 1 }, data } });
            expect(res.status).toBe(400);
            expect(res.body.error.message).toContain(`a nested ${op} through "assets" changes Asset records`);
            const owners = await s.prisma.asset.findMany({ select: { ownerId: true } });
            expect(owners.every((o: { ownerId: number }) => o.ownerId === 1)).toBe(true);
        });

        it('the same link made from the asset side is an update under the concrete model rules', async () => {
            if (!s) return;
            const reassign = (id: number) => ann('PATCH', '/asset/update', { body: { where: { id }, data: { owner: { connect: { id: 2 } } } } });
            expect((await reassign(ASSET.locked)).status).toBe(403);
            expect((await reassign(ASSET.png)).status).toBe(200);
            const owners = await s.prisma.asset.findMany({ where: { id: { in: [ASSET.png, ASSET.locked] } }, select: { id: true, ownerId: true }, orderBy: { id: 'asc' } });
            expect(owners).toEqual([
                { id: ASSET.png, ownerId: 2 },
                { id: ASSET.locked, ownerId: 1 },
            ]);
        });

        it('through a to-one relation too', async () => {
            if (!s) return;
            await s.prisma.note.create({ data: { id: 1, assetId: ASSET.locked, userId: 1 } });
            const res = await ann('PATCH', '/note/update', { body: { where: { id: 1 }, data: { asset: { update: { label: 'new' } } } } });
            expect(res.status).toBe(400);
            expect(await labels(s)).toEqual(ALL_OLD);
        });
    });

    it('writes through the concrete model itself are unchanged', async () => {
        if (!s) return;
        expect((await ann('DELETE', '/image/delete', { q: { where: { id: ASSET.keep } } })).status).toBe(403);
        expect((await ann('PATCH', '/image/updateMany', { body: { data: { label: 'new' } } })).body).toEqual({ data: { count: 3 } });
        expect((await ann('PATCH', '/video/update', { body: { where: { id: ASSET.video }, data: { label: 'new' } } })).status).toBe(200);
    });
}

describe('RPC writes through a @@delegate base model [sqlite]', () => defineTests('sqlite'));
describePg('RPC writes through a @@delegate base model', () => defineTests('postgresql'));
