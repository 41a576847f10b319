import { loadSchema } from './schema';
import { describePg, requirePg } from './postgres';

describe('test helper', () => {
    it('gives a fresh SQLite database with policies', async () => {
        const s = await loadSchema();
        try {
            const u = await s.prisma.user.create({ data: { email: 'a@x', posts: { create: [{ title: 'draft' }, { title: 'pub', published: true }] } } });
            expect(await s.enhance().post.count()).toBe(1);
            expect(await s.enhance({ id: u.id }).post.count()).toBe(2);
            expect(Object.keys(s.modelMeta.models)).toContain('allTypes');
        } finally {
            await s.cleanup();
        }
    });
});

describePg('test helper', () => {
    it('gives a fresh PostgreSQL database with policies', async () => {
        if (!(await requirePg())) return;
        const s = await loadSchema(undefined, { provider: 'postgresql' });
        try {
            const u = await s.prisma.user.create({ data: { email: 'a@x', posts: { create: [{ title: 'draft' }] } } });
            expect(await s.enhance().post.count()).toBe(0);
            expect(await s.enhance({ id: u.id }).post.count()).toBe(1);
        } finally {
            await s.cleanup();
        }
    });
});
