import { delegateSchema } from '../support/delegate-schema';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * ZenStack's internal relations of a `@@delegate` hierarchy (`delegate_aux_video` on Asset, `delegate_aux_asset` on
 * Video) carry no read rule: filters, orders, counts and includes through them read fields and rows the rules hide
 * (found by a review on 2026-12-01; 2.22.3 answers them all). They are refused wherever arguments name fields.
 */

const SCHEMA = delegateSchema(`
model Video extends Asset {
  duration    Int
  ownNote     String @allow('read', auth() == owner)
  secretLevel Int    @default(0)
  meta        Json?
  @@deny('read', secretLevel > 5)
}
model Image extends Asset {
  width Int
}
`);

describe('RPC: the internal relations of a @@delegate hierarchy', () => {
    let s: TestSchema;
    const bob = { id: 2 };
    beforeAll(async () => {
        s = await loadSchema(SCHEMA);
        await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
        const enhanced = s.enhance({ id: 1 }) as never as Record<string, { create: (a: unknown) => Promise<unknown> }>;
        await enhanced.video.create({ data: { id: 1, published: true, ownerId: 1, label: 'L1', duration: 10, ownNote: 'N1' } });
        await enhanced.video.create({ data: { id: 2, published: true, ownerId: 1, duration: 7777, ownNote: 'N2' } });
        await enhanced.image.create({ data: { id: 3, published: true, ownerId: 1, width: 5 } });
        await s.prisma.note.create({ data: { id: 1, assetId: 2, userId: 1 } });
        await s.prisma.video.update({ where: { id: 2 }, data: { secretLevel: 9 } });
    });
    afterAll(() => s.cleanup());

    it.each([
        ['a filter', 'GET', '/asset/count', { where: { delegate_aux_video: { ownNote: 'N1' } } }, 'where.delegate_aux_video'],
        ['a filter from the concrete side', 'GET', '/video/count', { where: { delegate_aux_asset: { label: 'L1' } } }, 'where.delegate_aux_asset'],
        ['a filter under OR', 'GET', '/asset/findMany', { where: { OR: [{ id: 9 }, { delegate_aux_video: { is: { secretLevel: 9 } } }] } }, 'where.OR.1.delegate_aux_video'],
        ['an order', 'GET', '/asset/findMany', { orderBy: [{ delegate_aux_video: { ownNote: 'asc' } }] }, 'orderBy.0.delegate_aux_video'],
        ['a grouping filter', 'GET', '/asset/groupBy', { by: ['ownerId'], where: { delegate_aux_video: { ownNote: { startsWith: 'N' } } }, _count: true }, 'where.delegate_aux_video'],
        ['an aggregate filter', 'GET', '/asset/aggregate', { where: { delegate_aux_video: { secretLevel: 9 } }, _count: true }, 'where.delegate_aux_video'],
        ['a relation count filter', 'GET', '/user/findMany', { select: { _count: { select: { assets: { where: { delegate_aux_video: { ownNote: 'N1' } } } } } } }, 'select._count.select.assets.where.delegate_aux_video'],
        ['a filter through a relation', 'GET', '/note/count', { where: { asset: { delegate_aux_video: { ownNote: 'N2' } } } }, 'where.asset.delegate_aux_video'],
        ['an include', 'GET', '/asset/findMany', { include: { delegate_aux_video: true } }, 'include.delegate_aux_video'],
        ['a selection', 'GET', '/asset/findMany', { select: { id: true, delegate_aux_video: { select: { ownNote: true } } } }, 'select.delegate_aux_video'],
        ['a write filter', 'PUT', '/asset/updateMany', { where: { delegate_aux_video: { ownNote: 'N1' } }, data: { published: true } }, 'where.delegate_aux_video'],
    ])('%s is a 400 naming the key', async (_name, method, path, args, at) => {
        const res = await rpcAs(s, bob, method, path, args);
        expect([res.status, res.body.error.message]).toEqual([400, expect.stringContaining(`"${at}" is not a field of`)]);
    });

    it('the fields themselves still work, and a Json value may hold such a key', async () => {
        const res = await rpcAs(s, bob, 'GET', '/asset/findMany', { where: { published: true }, orderBy: { id: 'asc' }, select: { id: true } });
        expect([res.status, res.body.data]).toEqual([200, [{ id: 1 }, { id: 2 }, { id: 3 }]]);
        const json = await rpcAs(s, bob, 'GET', '/video/count', { where: { meta: { equals: { delegate_aux_video: 1 } } } });
        expect([json.status, json.body.data]).toEqual([200, 0]);
    });
});
