import type { TestSchema } from '../support/schema';

/** The blog both sides of the JSON:API comparisons start from (each on its own database). */

export const AT = new Date('2024-05-01T10:00:00.000Z');

/** Two users (Alice, an admin with a profile, and Bob), two posts each (one published, one draft), three comments, a typed row. */
export async function seedRestBlog(s: TestSchema): Promise<void> {
    await s.prisma.user.create({ data: { id: 1, email: 'alice@x', name: 'Alice', role: 'ADMIN' } });
    await s.prisma.user.create({ data: { id: 2, email: 'bob@x', name: 'Bob' } });
    await s.prisma.profile.create({ data: { id: 1, gender: 'f', userId: 1 } });
    await s.prisma.post.create({ data: { id: 1, title: 'Published', published: true, viewCount: 5, authorId: 1, createdAt: AT } });
    await s.prisma.post.create({ data: { id: 2, title: 'Draft', authorId: 1, createdAt: AT } });
    await s.prisma.post.create({ data: { id: 3, title: 'Bob draft', authorId: 2, createdAt: AT } });
    await s.prisma.post.create({ data: { id: 4, title: 'Bob published', published: true, viewCount: 9, authorId: 2, createdAt: AT } });
    await s.prisma.comment.createMany({ data: [{ id: 1, content: 'Nice', postId: 1 }, { id: 2, content: 'Meh', postId: 1 }, { id: 3, content: 'Hm', postId: 4 }] });
    await s.prisma.allTypes.create({
        data: { id: 'typed', string: 's', int: 7, float: 1.5, boolean: true, dateTime: AT, bigInt: BigInt('9007199254740993'), decimal: '12.345', bytes: Buffer.from([1, 2, 3]), json: { a: [1, 'two', null] }, role: 'ADMIN', ownerId: 1 },
    });
}


/**
 * The REST blog plus rows that make borderline reads tell more: a user without name or posts, a post
 * without author tying another's viewCount, a comment on a draft, typed rows with other values and with nulls.
 */
export async function seedDifferentialBlog(s: TestSchema): Promise<void> {
    await seedRestBlog(s);
    await s.prisma.user.create({ data: { id: 3, email: 'carol@x' } });
    await s.prisma.profile.create({ data: { id: 2, gender: 'm', userId: 2 } });
    await s.prisma.post.create({ data: { id: 5, title: 'Orphan', published: true, viewCount: 5, createdAt: new Date('2023-01-01T00:00:00.000Z') } });
    await s.prisma.comment.create({ data: { id: 4, content: 'Nice', postId: 2 } });
    await s.prisma.allTypes.create({
        data: { id: 'other', string: 'Bob', int: -3, float: -0.5, dateTime: new Date('2030-01-01T00:00:00.000Z'), bigInt: 42n, decimal: '0.5', bytes: Buffer.from([0]), json: { b: 1 }, ownerId: 2 },
    });
    await s.prisma.allTypes.create({ data: { id: 'bare', dateTime: AT } });
}
