import type { TestSchema } from '../../support/schema';

/** What the client tests start from, on both servers: two users, their posts, a comment, a typed row. */

export const AT = new Date('2024-05-01T10:00:00.000Z');
export const ALICE = 1;
export const BOB = 2;

export async function seedBlog(s: TestSchema): Promise<void> {
    await s.prisma.user.create({ data: { id: ALICE, email: 'alice@x', name: 'Alice', role: 'ADMIN' } });
    await s.prisma.user.create({ data: { id: BOB, email: 'bob@x', name: 'Bob' } });
    await s.prisma.post.create({ data: { id: 1, title: 'Published', published: true, viewCount: 5, authorId: ALICE, createdAt: AT } });
    await s.prisma.post.create({ data: { id: 2, title: 'Draft', authorId: ALICE, createdAt: AT } });
    await s.prisma.post.create({ data: { id: 3, title: 'Bob draft', authorId: BOB, createdAt: AT } });
    await s.prisma.comment.create({ data: { id: 1, content: 'Nice', postId: 1 } });
    await s.prisma.allTypes.create({
        data: {
            id: 'typed',
            string: 's',
            int: 7,
            float: 1.5,
            boolean: true,
            dateTime: AT,
            bigInt: BigInt('9007199254740993'),
            decimal: '12.345',
            bytes: Buffer.from([1, 2, 3]),
            json: { a: [1, 'two', null] },
            role: 'ADMIN',
        },
    });
}

/** What a call through the hooks came to: the hook's data, or the error it threw (message, status, info). */
export type Outcome = { data: unknown } | { error: { message: string; status?: number; info?: unknown } };

export async function outcome(call: () => Promise<unknown>): Promise<Outcome> {
    try {
        return { data: await call() };
    } catch (err) {
        const e = err as Error & { status?: number; info?: unknown };
        return { error: { message: e.message, status: e.status, info: e.info } };
    }
}
