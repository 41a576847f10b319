// Seeds the demo database with three users, their posts (some drafts), comments and one AllTypes row.

/** Seeds through a raw (not enhanced) Prisma client of the blog schema, on either database. */
async function seedWith(prisma) {
    const people = [
        { email: 'alice@example.com', name: 'Alice', role: 'ADMIN', gender: 'female' },
        { email: 'bob@example.com', name: 'Bob', role: 'USER', gender: 'male' },
        { email: 'carol@example.com', name: 'Carol', role: 'USER', gender: 'female' },
    ];
    for (const [i, p] of people.entries()) {
        await prisma.user.create({
            data: {
                email: p.email,
                name: p.name,
                role: p.role,
                profile: { create: { gender: p.gender } },
                posts: {
                    create: [
                        {
                            title: `${p.name}'s first post`,
                            published: true,
                            viewCount: 10 * (i + 1),
                            comments: { create: [{ content: 'Nice!' }, { content: 'Thanks for sharing' }] },
                        },
                        { title: `${p.name}'s draft`, published: false },
                    ],
                },
            },
        });
    }
    await prisma.allTypes.create({
        data: {
            id: 'sample',
            string: 'hello',
            int: 42,
            float: 3.5,
            boolean: true,
            dateTime: new Date('2024-01-02T03:04:05.000Z'),
            bigInt: 9007199254740993n,
            decimal: '12.345',
            bytes: Buffer.from('zenstack'),
            json: { tags: ['a', 'b'] },
            role: 'ADMIN',
            ownerId: 1,
        },
    });
}

/** Seeds the SQLite demo database file. */
async function seed(dbFile) {
    const { PrismaClient } = require('@prisma/client');
    const { PrismaBetterSQLite3 } = require('@prisma/adapter-better-sqlite3');
    const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${dbFile}` }) });
    try {
        await seedWith(prisma);
    } finally {
        await prisma.$disconnect();
    }
}

module.exports = { seed, seedWith };
