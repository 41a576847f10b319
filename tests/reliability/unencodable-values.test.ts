import { RestApiHandler } from '../../src/api/rest';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { rpcCaller } from '../rpc/support';

/**
 * Values the data layer cannot even put into a query: a string holding an unpaired UTF-16 surrogate
 * (`"a\ud800"`, which JSON carries as an escape) and a date beyond the years 0000-9999 (year 10000, or
 * before year 0: ISO 8601's `+010000-…`, `-000001-…`, sent as a tagged Date). Both handlers answered a
 * 400 that said only "the data layer rejected the request"; the answer now says which kind of value it
 * is, on both databases, and nothing is written.
 */

const SCHEMA = `
model Note {
  id   Int       @id @default(autoincrement())
  text String    @default("")
  at   DateTime?
  @@allow('all', true)
}
`;

const SURROGATE = /a string of the request is not valid Unicode \(an unpaired UTF-16 surrogate\)/;
const DATE = /a date of the request is outside the years 0000 to 9999/;

function suite(provider: Provider, ready: () => Promise<boolean>) {
    let s: TestSchema | undefined;
    beforeAll(async () => {
        if (!(await ready())) return;
        s = await loadSchema(SCHEMA, { provider });
        await s.prisma.note.create({ data: { text: 'kept' } });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    /** `meta` tagging the value at `path` as a Date. */
    const dated = (path: string) => ({ serialization: { values: { [path]: ['Date'] } } });

    it('RPC: a 400 that says which kind of value, in writes and filters', async () => {
        if (!s) return;
        const call = rpcCaller(s);
        for (const [method, path, input, message] of [
            ['POST', '/note/create', { body: { data: { text: 'a\ud800' } } }, SURROGATE],
            ['POST', '/note/create', { body: { data: { text: '\udc00b' } } }, SURROGATE],
            ['GET', '/note/findMany', { q: { where: { text: { contains: 'x\ud83d' } } } }, SURROGATE],
            ['POST', '/note/create', { body: { data: { at: '+010000-01-01T00:00:00.000Z' }, meta: dated('data.at') } }, DATE],
            ['POST', '/note/create', { body: { data: { at: '-000001-06-01T00:00:00.000Z' }, meta: dated('data.at') } }, DATE],
            ['GET', '/note/findMany', { q: { where: { at: { lt: '+010000-01-01T00:00:00.000Z' } } }, meta: dated('where.at.lt') }, DATE],
        ] as const) {
            const res = await call(method, path, input);
            expect([path, res.status, res.body.error?.message]).toEqual([path, 400, expect.stringMatching(message)]);
        }
        expect(await s.prisma.note.count()).toBe(1);
    });

    it('REST: a 400 orm-error that says which kind of value', async () => {
        if (!s) return;
        const handle = RestApiHandler({ endpoint: 'http://x/api' });
        const rest = (method: string, path: string, body?: unknown, query: Record<string, string> = {}) =>
            handle({ method, path, query, requestBody: body, prisma: s!.enhance(), modelMeta: s!.modelMeta, logger: null });
        const cases = [
            [await rest('POST', '/note', { data: { type: 'note', attributes: { text: 'a\ud800' } } }), SURROGATE],
            [await rest('GET', '/note', undefined, { 'filter[text]': '\udfff' }), SURROGATE],
            [await rest('POST', '/note', { data: { type: 'note', attributes: { at: '+010000-01-01T00:00:00.000Z' } }, meta: { serialization: { values: { 'data.attributes.at': ['Date'] } } } }), DATE],
        ] as const;
        for (const [res, message] of cases) {
            const error = (res.body as { errors: { status: number; code: string; detail: string }[] }).errors[0];
            expect([res.status, error.code, error.detail]).toEqual([400, 'orm-error', expect.stringMatching(message)]);
        }
        expect(await s.prisma.note.count()).toBe(1);
    });
}

describe('values the data layer cannot encode [sqlite]', () => suite('sqlite', async () => true));
describePg('values the data layer cannot encode', () => suite('postgresql', requirePg));
