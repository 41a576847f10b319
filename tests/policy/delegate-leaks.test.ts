import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import { delegateSchema } from '../support/delegate-schema';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * Protected fields of a concrete `@@delegate` model (a field-level read rule, `@omit`, `@password`)
 * never come back through its base model. ZenStack 2.22 merges them into base records without their
 * rules in `findMany` and in nested reads of a relation to the base model (to anyone who can read the
 * record, anonymous users too); through the concrete model its rules apply and the owner reads them.
 */

const SCHEMA = delegateSchema(`
model Video extends Asset {
  duration Int
  ownNote  String @allow('read', auth() == owner)
  internal String @deny('read', true)
  hidden   String @omit
  pin      String @password
}
`);

const SECRETS = ['OWN-NOTE', 'INTERNAL', 'HIDDEN'];
/** `Asset.label`, readable by the owner only: a base field, whose rule ZenStack applies in base reads. */
const LABEL = 'OWNER-LABEL';
const OWNER = 1;
const PROTECTED = ['ownNote', 'internal', 'hidden', 'pin'];

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestSchema;
const rpcHandler = RPCApiHandler();
const restHandler = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.create({ data: { id: 1 } });
    await s.prisma.user.create({ data: { id: 2 } });
    const owner = s.enhance({ id: 1 }) as Body;
    await owner.video.create({ data: { id: 1, published: true, owner: { connect: { id: 1 } }, duration: 90, label: LABEL, ownNote: 'OWN-NOTE', internal: 'INTERNAL', hidden: 'HIDDEN', pin: 'PIN' } });
    await s.prisma.note.create({ data: { id: 1, assetId: 1, userId: 2 } });
});

afterAll(() => s?.cleanup());

async function rpc(user: number | undefined, method: string, path: string, args: unknown): Promise<{ status: number; body: Body }> {
    const res = await rpcAs(s, user === undefined ? undefined : { id: user }, method, path, args, { zod: true });
    return { status: res.status, body: JSON.parse(res.text) };
}

async function rest(user: number | undefined, path: string, query: Record<string, string> = {}): Promise<{ status: number; body: Body }> {
    const res = await restHandler({ method: 'GET', path, query, prisma: s.enhance(user === undefined ? undefined : { id: user }), modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger: null });
    return { status: res.status, body: JSON.parse(JSON.stringify(res.body)) };
}

/** Every object in `value` that has an `assetType` (a record read as an Asset, at any depth). */
function assetRecords(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
    if (Array.isArray(value)) value.forEach((v) => assetRecords(v, out));
    else if (value && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        if ('assetType' in record) out.push(record);
        Object.values(record).forEach((v) => assetRecords(v, out));
    }
    return out;
}

/** `user` read `body`: no protected concrete field, and the base field with a read rule for its owner only. */
function expectNoProtectedFields(body: Body, user: number | undefined): void {
    const text = JSON.stringify(body);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    const records = assetRecords(body);
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
        // the concrete model's plain field is there, its protected ones are not
        expect(record.duration).toBe(90);
        for (const name of PROTECTED) expect(record).not.toHaveProperty(name);
        if (user === OWNER) expect(record.label).toBe(LABEL);
        else expect(record).not.toHaveProperty('label');
    }
}

describe('RPC: protected concrete fields do not come back through the base model', () => {
    it.each([
        ['asset.findMany', '/asset/findMany', {}],
        ['asset.findMany with a relation', '/asset/findMany', { include: { notes: true } }],
        ['asset.findUnique', '/asset/findUnique', { where: { id: 1 } }],
        ['user.findMany including assets', '/user/findMany', { include: { assets: true } }],
        ['note.findUnique including its asset', '/note/findUnique', { where: { id: 1 }, include: { asset: true } }],
        ['note.findMany including its asset and its user with assets', '/note/findMany', { include: { asset: true, user: { include: { assets: true } } } }],
    ])('%s', async (_name, path, args) => {
        for (const user of [2, undefined, 1]) {
            const res = await rpc(user, 'GET', path, args);
            expect(res.status).toBe(200);
            expectNoProtectedFields(res.body, user);
        }
    });

    it('in write results and sequential transactions too', async () => {
        const updated = await rpc(1, 'PUT', '/asset/update', { where: { id: 1 }, data: { published: true } });
        expect(updated.status).toBe(200);
        expectNoProtectedFields(updated.body, 1);
        const viaNote = await rpc(2, 'PUT', '/note/update', { where: { id: 1 }, data: { userId: 2 }, include: { asset: true } });
        expectNoProtectedFields(viaNote.body, 2);
        const tx = await rpc(2, 'POST', '/$transaction/sequential', [{ model: 'asset', op: 'findMany', args: {} }]);
        expect(tx.status).toBe(200);
        expectNoProtectedFields(tx.body, 2);
    });

    it('the concrete model still answers them under their rules', async () => {
        const owner = await rpc(1, 'GET', '/video/findUnique', { where: { id: 1 } });
        expect(owner.body.data).toMatchObject({ duration: 90, ownNote: 'OWN-NOTE' });
        expect(owner.body.data).not.toHaveProperty('internal');
        expect(owner.body.data).not.toHaveProperty('hidden');
        const other = await rpc(2, 'GET', '/video/findMany', {});
        expect(other.body.data).toHaveLength(1);
        expect(other.body.data[0]).not.toHaveProperty('ownNote');
        expect(other.body.data[0]).not.toHaveProperty('internal');
    });
});

describe('REST: protected concrete fields do not come back through the base type', () => {
    it.each([
        ['/asset', {}],
        ['/asset/1', {}],
        ['/user/1', { include: 'assets' }],
        ['/note', { include: 'asset' }],
        ['/note/1/asset', {}],
        ['/user/1/assets', {}],
    ])('GET %s %j', async (path, query) => {
        for (const user of [2, undefined, 1]) {
            const res = await rest(user, path, query as Record<string, string>);
            expect(res.status).toBe(200);
            expectNoProtectedFields(res.body, user);
        }
    });

    it('the concrete type still answers them under their rules', async () => {
        const owner = await rest(1, '/video/1');
        expect(owner.body.data.attributes).toMatchObject({ duration: 90, ownNote: 'OWN-NOTE' });
        const other = await rest(2, '/video/1');
        expect(other.body.data.attributes).not.toHaveProperty('ownNote');
        expect(other.body.data.attributes).not.toHaveProperty('internal');
    });
});

describe('two levels of delegation (Asset → Media → Video)', () => {
    const TWO_LEVELS = delegateSchema(`
model Media extends Asset {
  size      Int
  mediaType String
  @@delegate(mediaType)
}

model Video extends Media {
  duration Int
  ownNote  String @allow('read', auth() == owner)
}
`);
    let two: TestSchema;
    beforeAll(async () => {
        two = await loadSchema(TWO_LEVELS);
        await two.prisma.user.create({ data: { id: 1 } });
        await two.prisma.user.create({ data: { id: 2 } });
        await (two.enhance({ id: 1 }) as Body).video.create({ data: { id: 1, published: true, owner: { connect: { id: 1 } }, size: 9, duration: 90, ownNote: 'OWN-NOTE' } });
    });
    afterAll(() => two?.cleanup());

    it.each(['asset', 'media'])('reads as %s answer the fields of every level but the protected one', async (model) => {
        const ctx = { prisma: two.enhance({ id: 2 }), modelMeta: two.modelMeta, zodSchemas: two.zodSchemas, logger: null };
        const query = (args: unknown) => ({ q: JSON.stringify(args) });
        const one = await rpcHandler({ ...ctx, method: 'GET', path: `/${model}/findUnique`, query: query({ where: { id: 1 } }) });
        const many = await rpcHandler({ ...ctx, method: 'GET', path: `/${model}/findMany`, query: query({}) });
        const resource = await restHandler({ ...ctx, method: 'GET', path: `/${model}/1`, query: {} });
        const collection = await restHandler({ ...ctx, method: 'GET', path: `/${model}`, query: {} });
        const records = [(one.body as Body).data, (many.body as Body).data[0], (resource.body as Body).data.attributes, (collection.body as Body).data[0].attributes];
        for (const record of records) {
            expect(record).toMatchObject({ assetType: 'Media', mediaType: 'Video', size: 9, duration: 90 });
            expect(record).not.toHaveProperty('ownNote');
        }
    });
});
