import { seedBlog } from '../client/support/seed';
import { describePg, requirePg } from '../support/postgres';
import { BLOG_SCHEMA, loadSchema, type Provider, type TestSchema } from '../support/schema';
import { rpcAs, type Res } from './rpc-call';

/**
 * A filter on a required to-one relation that names only the key the row holds, under AND/OR/NOT, where the
 * handlers move it onto the key (`rpc-foreign-key-filters.test.ts`): `post: { is: {} }` holds for every comment,
 * so its negation holds for none, as Prisma and 2.22.3 answer it; and `null`, which Prisma refuses for a required
 * relation, is refused. Found by the differential test against 2.22.3 (`tests/compat/differential.test.ts`).
 * Alice reads comment 1 of her post 1. On SQLite and PostgreSQL: the rewrite relies on how Prisma compiles an empty
 * `in`/`notIn`.
 */

function suite(provider: Provider): void {
    let s: TestSchema | undefined;

    beforeAll(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        s = await loadSchema(BLOG_SCHEMA, { provider });
        await seedBlog(s);
        await s.prisma.comment.create({ data: { id: 2, content: 'Own draft', postId: 2 } });
    });

    afterAll(async () => {
        await s?.cleanup();
    });

    const count = async (where: unknown): Promise<[number, unknown]> => {
        const res: Res = await rpcAs(s!, { id: 1 }, 'GET', '/comment/count', { where });
        return [res.status, res.body.data ?? res.body.error?.message];
    };

    describe('a relation filter on a required key, moved onto the key', () => {
        it('holds for every row when it names nothing of the key, also negated', async () => {
            if (!s) return;
            expect(await count({ NOT: [{ post: { is: {} } }] })).toEqual([200, 0]);
            expect(await count({ NOT: { post: {} } })).toEqual([200, 0]);
            expect(await count({ OR: [{ post: { isNot: {} } }, { id: 1 }] })).toEqual([200, 1]);
            expect(await count({ NOT: { NOT: { post: { is: {} } } } })).toEqual([200, 2]);
            expect(await count({ NOT: [{ post: { is: { id: 1 } } }] })).toEqual([200, 1]);
        });

        it('takes no null, as Prisma takes none for a required relation', async () => {
            if (!s) return;
            for (const where of [{ NOT: [{ post: { isNot: null } }] }, { OR: [{ post: null }] }, { OR: [{ post: { is: null } }] }]) {
                expect((await count(where))[0]).toBe(400);
            }
        });
    });
}

describe('SQLite', () => suite('sqlite'));
describePg('PostgreSQL', () => suite('postgresql'));
