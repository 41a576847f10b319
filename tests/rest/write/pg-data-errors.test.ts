import { randomBytes } from 'node:crypto';
import { describePg, requirePg } from '../../support/postgres';
import { docOf, firstError, openApi, seedBlog } from './harness';

// Values PostgreSQL refuses as data (SQLSTATE class 22) or as too large (class 54) are the request's fault: a 400, nothing written.

describePg('REST on PostgreSQL, values the database cannot take', () => {
    it('a NUL byte in text or an out-of-range date is a 400, in filters and writes', async () => {
        if (!(await requirePg())) return;
        const api = await openApi(undefined, 'postgresql');
        try {
            const ids = await seedBlog(api.s);
            const user = { id: ids.u1 };
            const filter = await api.call(user, 'GET', '/post', undefined, { query: { 'filter[title]': 'a\u0000b' } });
            expect([filter.status, firstError(filter).code]).toEqual([400, 'orm-error']);
            const update = await api.call(user, 'PATCH', `/post/${ids.draft}`, { data: { type: 'post', attributes: { title: 'a\u0000b' } } });
            expect(update.status).toBe(400);
            const create = await api.call(user, 'POST', '/post', {
                data: { type: 'post', attributes: { title: 'old', createdAt: '0000-01-01T00:00:00.000Z' }, relationships: { author: { data: { type: 'user', id: String(ids.u1) } } } },
            });
            expect(create.status).toBe(400);
            expect(JSON.stringify(docOf(create))).not.toMatch(/stack|at .*\.js/);
            expect(await api.s.prisma.post.findUnique({ where: { id: ids.draft } })).toMatchObject({ title: 'draft' });
            expect(await api.s.prisma.post.count({ where: { title: 'old' } })).toBe(0);
        } finally {
            await api.cleanup();
        }
    });

    it('a value too large for its unique index is a 400 (it was a 500), nothing written', async () => {
        if (!(await requirePg())) return;
        const api = await openApi(undefined, 'postgresql');
        try {
            const email = `${randomBytes(12000).toString('base64')}@x`; // incompressible: 16 KB in the index row
            const res = await api.call(undefined, 'POST', '/user', { data: { type: 'user', attributes: { email } } });
            expect([res.status, firstError(res).code]).toEqual([400, 'orm-error']);
            expect(firstError(res).detail).toMatch(/exceeds a limit of the database.*SQLSTATE 54000/);
            expect(await api.s.prisma.user.count()).toBe(0);
        } finally {
            await api.cleanup();
        }
    });
});
