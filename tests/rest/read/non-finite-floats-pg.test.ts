import { rpcAs } from '../../policy/rpc-call';
import { describePg, requirePg } from '../../support/postgres';
import { loadSchema, type TestSchema } from '../../support/schema';
import { makeApi } from './support';

/**
 * Floats JSON cannot write: NaN, ±Infinity and -0. Found by a review on 2026-12-01: the items of a `Float[]` were
 * answered `null` by the JSON:API handler (their values lost, with no tag; RPC and 2.22.3 tag them), and `-0` was
 * answered `0` by both handlers (2.22.3: `"-0"`, tagged). superjson writes them as strings tagged `number`.
 */

const SCHEMA = `
model F {
  id Int     @id
  f  Float
  fs Float[]
  @@allow('all', true)
}
`;

describePg('non-finite floats and -0 on PostgreSQL', () => {
    let s: TestSchema | undefined;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider: 'postgresql' });
        await s.prisma.$executeRawUnsafe(`INSERT INTO "F" ("id", "f", "fs") VALUES (1, '-0', '{Infinity,-Infinity,NaN,-0,1.5}'), (2, 'NaN', '{}')`);
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    it('JSON:API tags each one, list items too', async () => {
        if (!s) return;
        const api = makeApi(s);
        const res = api.body(await api.get('/f', { sort: 'id' }));
        expect(res.data.map((r: { attributes: unknown }) => r.attributes)).toEqual([
            { f: '-0', fs: ['Infinity', '-Infinity', 'NaN', '-0', 1.5] },
            { f: 'NaN', fs: [] },
        ]);
        expect(res.meta.serialization.values).toEqual({
            'data.0.attributes.f': ['number'],
            'data.0.attributes.fs.0': ['number'],
            'data.0.attributes.fs.1': ['number'],
            'data.0.attributes.fs.2': ['number'],
            'data.0.attributes.fs.3': ['number'],
            'data.1.attributes.f': ['number'],
        });
    });

    it('RPC tags -0 as it tags NaN', async () => {
        if (!s) return;
        const res = await rpcAs(s, undefined, 'GET', '/f/findUnique', { where: { id: 1 } });
        expect(res.body.data).toEqual({ id: 1, f: '-0', fs: ['Infinity', '-Infinity', 'NaN', '-0', 1.5] });
        expect(res.body.meta.serialization.values).toMatchObject({ f: ['number'], 'fs.3': ['number'] });
    });
});
