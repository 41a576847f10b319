import { getJsonNullObjects } from '../../../src/api/common/prisma-nulls';
import { RestApiHandler } from '../../../src/api/rest';
import { blogApi, makeApi, type Api, type Query } from './support';

/** filter[...] on SQLite through handle(ctx): every form and operator, typed values, and every filter error. */

describe('REST filters (SQLite)', () => {
    let api: Api;
    beforeAll(async () => {
        api = await blogApi();
        await api.s.prisma.allTypes.create({
            data: {
                id: 'a',
                string: 'alpha',
                int: 1,
                float: 1.5,
                boolean: true,
                dateTime: new Date('2024-01-01T00:00:00.000Z'),
                bigInt: 10n,
                decimal: '1.25',
                bytes: Buffer.from([1, 2, 3]),
                role: 'USER',
            },
        });
        await api.s.prisma.allTypes.create({
            data: {
                id: 'b',
                string: 'beta',
                int: 2,
                float: 2.5,
                boolean: false,
                dateTime: new Date('2024-01-02T12:00:00.000Z'),
                bigInt: 9007199254740993n,
                decimal: '2.5',
                role: 'ADMIN',
                ownerId: 1,
            },
        });
    });
    afterAll(() => api.s.cleanup());

    /** The ids of the primary data (and checks that meta.total agrees with an unpaginated read). */
    async function ids(path: string, query: Query, user: number | null = 1): Promise<Array<string | number>> {
        const res = await api.get(path, query, user);
        const body = api.body(res);
        if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
        expect(body.meta.total).toBe(body.data.length);
        return body.data.map((r: { id: string | number }) => r.id);
    }

    async function error(path: string, query: Query): Promise<{ status: number; code: string; detail: string; source?: unknown }> {
        const res = await api.get(path, query);
        const err = api.body(res).errors[0];
        expect(err.status).toBe(res.status);
        return { status: res.status, code: err.code, detail: err.detail, source: err.source };
    }

    describe('equality', () => {
        it.each<[Query, number[]]>([
            [{ 'filter[title]': 'Hello World' }, [1]],
            [{ 'filter[published]': 'false' }, [2]],
            [{ 'filter[viewCount]': '5' }, [3]],
            [{ 'filter[viewCount]': '5,10' }, [1, 3]],
            [{ 'filter[id]': '1,3' }, [1, 3]],
            [{ 'filter[authorId]': '2' }, [3]],
            [{ 'filter[createdAt]': '2024-01-02T00:00:00.000Z' }, [2]],
            [{ 'filter[createdAt]': '2024-01-02' }, [2]],
        ])('%j → %j', async (query, expected) => {
            expect(await ids('/post', query)).toEqual(expected);
        });

        it('is typed for every scalar type', async () => {
            expect(await ids('/allTypes', { 'filter[string]': 'beta' })).toEqual(['b']);
            // an empty value is a value (2.x dropped the filter and answered every record)
            expect(await ids('/allTypes', { 'filter[string]': '' })).toEqual([]);
            expect(await ids('/allTypes', { 'filter[string$contains]': '' })).toEqual(['a', 'b']);
            expect(await ids('/allTypes', { 'filter[int]': '1' })).toEqual(['a']);
            expect(await ids('/allTypes', { 'filter[float]': '2.5' })).toEqual(['b']);
            expect(await ids('/allTypes', { 'filter[float$gt]': '2E0', 'filter[float$lt]': '.3e+1' })).toEqual(['b']);
            expect(await ids('/allTypes', { 'filter[bigInt$lt]': '9223372036854775807', 'filter[bigInt$gt]': '-9223372036854775808' })).toEqual(['a', 'b']);
            expect(await ids('/allTypes', { 'filter[bigInt]': '9007199254740993' })).toEqual(['b']);
            expect(await ids('/allTypes', { 'filter[decimal]': '1.25' })).toEqual(['a']);
            expect(await ids('/allTypes', { 'filter[boolean]': 'true' })).toEqual(['a']);
            expect(await ids('/allTypes', { 'filter[boolean]': 'true,false' })).toEqual(['a', 'b']);
            expect(await ids('/allTypes', { 'filter[dateTime]': '2024-01-02T12:00:00Z' })).toEqual(['b']);
            expect(await ids('/allTypes', { 'filter[bytes]': Buffer.from([1, 2, 3]).toString('base64') })).toEqual(['a']);
            expect(await ids('/allTypes', { 'filter[role]': 'ADMIN' })).toEqual(['b']);
            expect(await ids('/user', { 'filter[role]': 'ADMIN,USER' })).toEqual([1, 2, 3]);
        });

        it('applies several parameters together, repeated ones too', async () => {
            expect(await ids('/post', { 'filter[published]': 'true', 'filter[authorId]': '1' })).toEqual([1]);
            expect(await ids('/post', { 'filter[title$contains]': ['o', 'World'] })).toEqual([1]);
        });

        it('accepts nested objects from adapters that parse brackets (qs)', async () => {
            const query = { filter: { author: { name: 'Bob' } } } as unknown as Query;
            expect(await ids('/post', query)).toEqual([3]);
        });

        it('a nested query object deeper than the stack is a 400, as its bracketed form is (it was a 500)', async () => {
            // as a framework that reads brackets without a depth bound hands over filter[author][author]…=x
            let deep: unknown = 'x';
            for (let i = 0; i < 300_000; i++) deep = { author: deep };
            const res = await error('/post', { filter: deep } as unknown as Query);
            expect(res).toMatchObject({ status: 400, code: 'invalid-filter' });
            const include = await api.get('/post', { include: JSON.parse(`${'['.repeat(300_000)}"author"${']'.repeat(300_000)}`) } as unknown as Query);
            expect(include.status).toBe(200);
        });
    });

    describe('relationships', () => {
        it('filters by related id, to-one and to-many, any-of', async () => {
            expect(await ids('/post', { 'filter[author]': '2' })).toEqual([3]);
            expect(await ids('/post', { 'filter[author]': '1,2' })).toEqual([1, 2, 3]);
            expect(await ids('/post', { 'filter[comments]': '3' })).toEqual([3]);
            expect(await ids('/user', { 'filter[posts]': '1,3' })).toEqual([1, 2]);
            expect(await ids('/user', { 'filter[profile]': '2' })).toEqual([2]);
        });

        it('filters deeply through relationships, with some-semantics on to-many at every level', async () => {
            expect(await ids('/post', { 'filter[author][name]': 'Bob' })).toEqual([3]);
            expect(await ids('/post', { 'filter[author][profile][gender]': 'female' })).toEqual([1, 2]);
            expect(await ids('/user', { 'filter[posts][comments][content]': 'Nice' })).toEqual([2]);
            expect(await ids('/comment', { 'filter[post][author][email$endsWith]': 'alice@example.com' })).toEqual([1, 2, 4]);
            expect(await ids('/user', { 'filter[posts][viewCount$gte]': '10' })).toEqual([1]);
        });

        it('never matches through records the user cannot read', async () => {
            // "draft" matches Alice's and Bob's drafts; each user only sees their own
            expect(await ids('/user', { 'filter[posts][title$contains]': 'draft' }, 1)).toEqual([1]);
            expect(await ids('/user', { 'filter[posts][title$contains]': 'draft' }, 2)).toEqual([2]);
            expect(await ids('/post', { 'filter[comments][content]': 'secret draft comment' }, 2)).toEqual([]);
        });

        it('$isNull on to-one and $isEmpty on to-many relationships', async () => {
            expect(await ids('/post', { 'filter[author$isNull]': 'true' })).toEqual([5]);
            expect(await ids('/post', { 'filter[author$isNull]': 'false' })).toEqual([1, 2, 3]);
            expect(await ids('/post', { 'filter[comments$isEmpty]': 'true' })).toEqual([5]);
            expect(await ids('/post', { 'filter[comments$isEmpty]': 'false' })).toEqual([1, 2, 3]);
        });
    });

    describe('operators', () => {
        it.each<[Query, number[]]>([
            [{ 'filter[viewCount$lt]': '5' }, [2]],
            [{ 'filter[viewCount$lte]': '5' }, [2, 3]],
            [{ 'filter[viewCount$gt]': '5' }, [1, 5]],
            [{ 'filter[viewCount$gte]': '10' }, [1, 5]],
            [{ 'filter[createdAt$gt]': '2024-01-02T00:00:00Z' }, [3, 5]],
            [{ 'filter[title$lt]': 'C' }, [3]],
            [{ 'filter[title$contains]': 'Bob' }, [3]],
            [{ 'filter[title$contains]': 'World,news' }, [1, 5]],
            [{ 'filter[title$startsWith]': 'Hello' }, [1]],
            [{ 'filter[title$endsWith]': 'news' }, [5]],
            [{ 'filter[title$icontains]': 'hello WORLD' }, [1]],
            [{ 'filter[authorId$ne]': '1' }, [3, 5]],
            [{ 'filter[authorId$ne]': '1,2' }, [5]],
            [{ 'filter[published$ne]': 'true' }, [2]],
            [{ 'filter[authorId$isNull]': 'true' }, [5]],
            [{ 'filter[authorId$isNull]': 'false' }, [1, 2, 3]],
            [{ 'filter[viewCount$between]': '5,10' }, [1, 3]],
            [{ 'filter[createdAt$between]': '2024-01-02,2024-01-03' }, [2, 3]],
            [{ 'filter[id$in]': '1,5' }, [1, 5]],
            [{ 'filter[viewCount$notIn]': '0,10' }, [3, 5]],
            [{ 'filter[authorId$notIn]': '2' }, [1, 2, 5]],
        ])('%j → %j', async (query, expected) => {
            expect(await ids('/post', query)).toEqual(expected);
        });

        it('$contains is case-insensitive for ASCII on SQLite (LIKE), like $icontains', async () => {
            expect(await ids('/post', { 'filter[title$contains]': 'hello' })).toEqual([1]);
        });

        it('compares typed values with operators', async () => {
            expect(await ids('/allTypes', { 'filter[decimal$gte]': '2' })).toEqual(['b']);
            expect(await ids('/allTypes', { 'filter[float$lt]': '2' })).toEqual(['a']);
            expect(await ids('/allTypes', { 'filter[bigInt$gt]': '9007199254740992' })).toEqual(['b']);
            expect(await ids('/allTypes', { 'filter[dateTime$lte]': '2024-01-01T23:59:59Z' })).toEqual(['a']);
            expect(await ids('/allTypes', { 'filter[ownerId$ne]': '1' })).toEqual(['a']);
            expect(await ids('/allTypes', { 'filter[role$ne]': 'USER' })).toEqual(['b']);
        });
    });

    describe('collections reached through relationships', () => {
        it('filters related collections and counts under the filter', async () => {
            const res = api.body(await api.get('/user/1/posts', { 'filter[published]': 'false' }));
            expect(res.data.map((r: { id: number }) => r.id)).toEqual([2]);
            expect(res.meta.total).toBe(1);
            const rel = api.body(await api.get('/user/1/relationships/posts', { 'filter[published]': 'true' }));
            expect(rel.data).toEqual([{ type: 'post', id: 1 }]);
            expect(rel.meta.total).toBe(1);
        });
    });

    describe('errors', () => {
        it.each<[Query, string, RegExp]>([
            [{ 'filter[nope]': '1' }, 'invalid-filter', /"nope" is not a field of "post"/],
            [{ 'filter[author][nope]': '1' }, 'invalid-filter', /"nope" is not a field of "user"/],
            [{ 'filter[title][x]': '1' }, 'invalid-filter', /not a relationship/],
            [{ 'filter[title$like]': 'x' }, 'invalid-filter', /unknown filter operator "\$like"/],
            [{ 'filter[viewCount$contains]': '1' }, 'invalid-filter', /does not apply to "viewCount"/],
            [{ 'filter[published$gt]': 'true' }, 'invalid-filter', /does not apply/],
            [{ 'filter[author$gt]': '1' }, 'invalid-filter', /is a relationship/],
            [{ 'filter[comments$isNull]': 'true' }, 'invalid-filter', /is a relationship/],
            [{ 'filter[viewCount]': 'abc' }, 'invalid-value', /expected an integer/],
            [{ 'filter[viewCount]': '1.5' }, 'invalid-value', /expected an integer/],
            [{ 'filter[viewCount]': '' }, 'invalid-value', /expected an integer/],
            [{ 'filter[viewCount]': '99999999999' }, 'invalid-value', /expected an integer/],
            [{ 'filter[viewCount$gte]': '2147483648' }, 'invalid-value', /expected an integer/],
            [{ 'filter[id]': '1,x' }, 'invalid-value', /"x"/],
            [{ 'filter[published]': 'yes' }, 'invalid-value', /"true" or "false"/],
            [{ 'filter[createdAt]': 'yesterday' }, 'invalid-value', /ISO 8601/],
            [{ 'filter[createdAt]': '12345' }, 'invalid-value', /ISO 8601/],
            [{ 'filter[createdAt$lt]': '2024-02-30' }, 'invalid-value', /ISO 8601/],
            [{ 'filter[createdAt$between]': '2024-01-01,2023-02-29T00:00:00Z' }, 'invalid-value', /ISO 8601/],
            [{ 'filter[viewCount$between]': '1' }, 'invalid-value', /two comma-separated values/],
            [{ 'filter[viewCount$between]': '1,2,3' }, 'invalid-value', /two comma-separated values/],
            [{ 'filter[authorId$isNull]': 'maybe' }, 'invalid-value', /"true" or "false"/],
            [{ 'filter[author]': 'abc' }, 'invalid-value', /invalid user id "abc"/],
            [{ filter: 'x' }, 'invalid-filter', /malformed filter/],
            [{ 'filter[]': 'x' }, 'invalid-filter', /malformed filter/],
        ])('%j → 400 %s', async (query, code, detail) => {
            const err = await error('/post', query);
            expect(err.status).toBe(400);
            expect(err.code).toBe(code);
            expect(err.detail).toMatch(detail);
            expect(err.source).toEqual({ parameter: Object.keys(query)[0] });
        });

        it.each<[string, Query, RegExp]>([
            ['/post', { 'filter[title$isNull]': 'true' }, /"title": it is a required field/],
            ['/post', { 'filter[id$isNull]': 'false' }, /"id": it is a required field/],
            ['/post', { 'filter[author][email$isNull]': 'true' }, /"email": it is a required field/],
            ['/comment', { 'filter[post$isNull]': 'true' }, /"post": it is a required relationship/],
            ['/profile', { 'filter[user$isNull]': 'false' }, /"user": it is a required relationship/],
        ])('$isNull on a required field or to-one relationship: %s %j → 400 invalid-filter naming it (was the client\'s own refusal as invalid-payload)', async (path, query, detail) => {
            const err = await error(path, query);
            expect([err.status, err.code, err.source]).toEqual([400, 'invalid-filter', { parameter: Object.keys(query)[0] }]);
            expect(err.detail).toMatch(detail);
        });

        it('rejects values of the wrong type on the other scalar types', async () => {
            for (const [q, detail] of [
                [{ 'filter[role]': 'BOSS' }, /one of USER, ADMIN/],
                [{ 'filter[bigInt]': '1.5' }, /integer/],
                [{ 'filter[decimal]': 'one' }, /decimal/],
                [{ 'filter[float]': 'x' }, /number/],
                [{ 'filter[float]': '0x10' }, /number/], // Number() reads these as 16, 1 and 8: they matched
                [{ 'filter[float$gt]': '0b1' }, /number/],
                [{ 'filter[float$lt]': '0o10' }, /number/],
                [{ 'filter[bigInt]': '9223372036854775808' }, /64-bit integer/], // the data layer's 400 named nothing
                [{ 'filter[bigInt$gt]': '-9223372036854775809' }, /64-bit integer/],
                [{ 'filter[bytes]': '***' }, /Base64/],
            ] as Array<[Query, RegExp]>) {
                const err = await error('/allTypes', q);
                expect([err.status, err.detail]).toEqual([400, expect.stringMatching(detail)]);
            }
        });

        const runtimeZod = () => {
            const { models, input, objects } = api.s.zodSchemas as unknown as Record<string, unknown>;
            return { models, input, objects } as unknown as typeof api.s.zodSchemas;
        };
        it.each([
            ['with the schemas @zenstackhq/runtime/zod exports (models, input, objects: no enums)', runtimeZod],
            ['without zod schemas, from the Prisma schema the client was generated from (was the data layer\'s 400 invalid-payload naming no parameter)', () => undefined],
        ])('checks enum values %s', async (_, zod) => {
            const zodSchemas = zod();
            const handle = RestApiHandler({ endpoint: 'http://localhost/api' });
            const call = (method: string, path: string, query: Query, requestBody?: unknown) =>
                handle({ method, path, query, requestBody, prisma: api.s.enhance({ id: 1 }), modelMeta: api.s.modelMeta, zodSchemas, logger: null });
            for (const [path, q] of [
                ['/allTypes', { 'filter[role]': 'BOSS' }],
                ['/user', { 'filter[role$in]': 'USER,BOSS' }],
                ['/post', { 'filter[author][role]': 'BOSS' }],
            ] as Array<[string, Query]>) {
                const res = await call('GET', path, q);
                const err = (res.body as { errors: Array<Record<string, unknown>> }).errors[0];
                expect([res.status, err.code, err.source]).toEqual([400, 'invalid-value', { parameter: Object.keys(q)[0] }]);
                expect(err.detail).toMatch(/one of USER, ADMIN/);
            }
            const ok = await call('GET', '/user', { 'filter[role]': 'ADMIN' });
            expect(ok.status).toBe(200);
            const write = await call('PATCH', '/user/1', {}, { data: { type: 'user', id: '1', attributes: { role: 'BOSS' } } });
            const err = (write.body as { errors: Array<Record<string, unknown>> }).errors[0];
            expect([write.status, err.source]).toEqual([400, { pointer: '/data/attributes/role' }]);
        });

        it('answers 400 for PostgreSQL-only operators on SQLite', async () => {
            for (const op of ['has', 'hasEvery', 'hasSome', 'isEmpty', 'search']) {
                const err = await error('/post', { [`filter[title$${op}]`]: 'x' });
                expect(err.status).toBe(400);
                expect(err.code).toBe('unsupported-feature');
                expect(err.detail).toMatch(new RegExp(`\\$${op} filter operator needs postgresql.*this database is sqlite`));
            }
        });

        it('enforces maxFilters', async () => {
            const limited = makeApi(api.s, { maxFilters: 2 });
            const ok = await limited.get('/post', { 'filter[published]': 'true', 'filter[authorId]': '1' });
            expect(ok.status).toBe(200);
            const res = await limited.get('/post', { 'filter[published]': 'true', 'filter[authorId]': '1', 'filter[viewCount]': '10' });
            expect(res.status).toBe(400);
            expect(limited.body(res).errors[0]).toMatchObject({ code: 'invalid-filter', detail: expect.stringMatching(/limit is 2/) });
        });

        it('limits how many relationships one filter path goes through (maxIncludeDepth)', async () => {
            const path = (hops: number) => `filter${'[author][posts]'.repeat(hops / 2)}${hops % 2 ? '[author]' : ''}[${hops % 2 ? 'email' : 'title'}]`;
            expect((await api.get('/post', { [path(4)]: 'x' })).status).toBe(200);
            const err = await error('/post', { [path(5)]: 'x' });
            expect([err.status, err.code]).toEqual([400, 'invalid-filter']);
            expect(err.detail).toMatch(/5 relationships; the limit is 4/);
            const deeper = makeApi(api.s, { maxIncludeDepth: 6 });
            expect((await deeper.get('/post', { [path(5)]: 'x' })).status).toBe(200);
        });

        it('limits the number of comma-separated values', async () => {
            const many = Array.from({ length: 1001 }, (_, i) => String(i)).join(',');
            const err = await error('/post', { 'filter[id]': many });
            expect([err.status, err.code]).toEqual([400, 'invalid-filter']);
        });
    });
});

describe('REST filters on Json fields: equality with a JSON value, as 2.x has it', () => {
    let api: Api;
    beforeAll(async () => {
        api = await blogApi();
        const rows: Array<[string, unknown]> = [
            ['object', { a: [1, 'two', null] }],
            ['array', [1, 2]],
            ['text', 'a,b'],
            ['number', 7],
        ];
        for (const [id, json] of rows) await api.s.prisma.allTypes.create({ data: { id, json } });
        await api.s.prisma.allTypes.create({ data: { id: 'dbnull' } });
        await api.s.prisma.allTypes.create({ data: { id: 'jsonnull', json: getJsonNullObjects(api.s.prisma).JsonNull } });
    });
    afterAll(() => api.s.cleanup());

    async function ids(value: string): Promise<string[]> {
        const res = await api.get('/allTypes', { 'filter[json]': value });
        expect(res.status).toBe(200);
        return api.body(res).data.map((r: { id: string }) => r.id).sort();
    }

    it.each<[string, string[]]>([
        ['{"a":[1,"two",null]}', ['object']],
        ['[1,2]', ['array']],
        ['"a,b"', ['text']], // the whole text is one value: no comma-separated any-of
        ['7', ['number']],
        ['8', []],
        ['null', ['dbnull', 'jsonnull']], // a JSON null and a database NULL
    ])('filter[json]=%s → %j', async (value, expected) => {
        expect(await ids(value)).toEqual(expected);
    });

    it.each<[Query, string, RegExp]>([
        [{ 'filter[json]': '{bad' }, 'invalid-value', /not valid JSON/],
        [{ 'filter[json]': '1,2' }, 'invalid-value', /not valid JSON/],
        [{ 'filter[json]': `${'['.repeat(40)}${']'.repeat(40)}` }, 'invalid-value', /nests deeper than 32/],
        // ZenStack's copy of the filter would turn the key into a prototype and match {"a":1}
        [{ 'filter[json]': '{"__proto__":{"a":1}}' }, 'invalid-value', /must not contain a "__proto__" key/],
        [{ 'filter[json]': '[{"x":{"__proto__":{}}}]' }, 'invalid-value', /must not contain a "__proto__" key/],
        [{ 'filter[json$contains]': 'a' }, 'invalid-filter', /equality only/],
        [{ 'filter[json$isNull]': 'true' }, 'invalid-filter', /equality only/],
    ])('%j → 400 %s', async (query, code, detail) => {
        const res = await api.get('/allTypes', query);
        expect(res.status).toBe(400);
        expect(api.body(res).errors[0]).toMatchObject({ code, detail: expect.stringMatching(detail), source: { parameter: Object.keys(query)[0] } });
    });
});
