import { describePg } from '../../support/postgres';
import { ONE_TO_ONE_HIDDEN_KEY_SCHEMA, ONE_TO_ONE_MODELS, ONE_TO_ONE_SCHEMA, ONE_TO_ONE_SHAPES_SCHEMA, seedOneToOne, seedOneToOneHiddenKeys, seedOneToOneShapes } from '../../support/one-to-one-schema';
import type { Provider } from '../../support/schema';
import { docOf, firstError, freshPerTest, openApi, snapshot, type Api } from './harness';

/**
 * One-to-one relationship changes through the REST handler (see one-to-one-schema.ts for the seed):
 * a link never detaches the target's or the record's current partner without that partner's update
 * rule, and every refused change leaves the database as it was.
 */

const ME = { id: 1 };

function defineOneToOneTests(provider: Provider): void {
    /** A fresh seeded database and its rows, or undefined when PostgreSQL is not there (reported by describePg). */
    const open = freshPerTest(ONE_TO_ONE_SCHEMA, provider, (a) => seedOneToOne(a.s), ONE_TO_ONE_MODELS);
    const rows = (a: Api) => snapshot(a.s, ONE_TO_ONE_MODELS);
    const userIdOf = async (a: Api, profile: number) => (await a.s.prisma.profile.findUnique({ where: { id: profile } })).userId;
    const personIdOf = async (a: Api, card: number) => (await a.s.prisma.card.findUnique({ where: { id: card } })).personId;
    const link = (type: string, id: string) => ({ data: { type, id } });

    it('C: linking a profile to a user who has one already is a 409 at /data, and the other profile keeps its user', async () => {
        const o = await open();
        if (!o) return;
        const res = await o.a.call(ME, 'PATCH', '/profile/2/relationships/user', link('user', '2'));
        expect([res.status, firstError(res).code, firstError(res).source?.pointer]).toEqual([409, 'unique-violation', '/data']);
        expect(await rows(o.a)).toEqual(o.before);
        // a free user is linked
        const free = await o.a.call(ME, 'PATCH', '/profile/2/relationships/user', link('user', '3'));
        expect([free.status, docOf(free).data]).toEqual([200, { type: 'user', id: 3 }]);
        expect([await userIdOf(o.a, 2), await userIdOf(o.a, 3)]).toEqual([3, 2]);
    });

    it('I: a missing and an unreadable user answer the same 404 at /data, and nothing is linked', async () => {
        const o = await open();
        if (!o) return;
        const missing = await o.a.call(ME, 'PATCH', '/profile/2/relationships/user', link('user', '77'));
        const hidden = await o.a.call(ME, 'PATCH', '/profile/2/relationships/user', link('user', '9'));
        expect([missing.status, firstError(missing).source?.pointer]).toEqual([404, '/data']);
        const shape = (res: typeof missing) => JSON.stringify(res.body).replace(/\\"(77|9)\\"/, 'ID');
        expect(shape(hidden)).toBe(shape(missing));
        // in a resource document too
        const created = await o.a.call(ME, 'POST', '/profile', { data: { type: 'profile', id: '5', relationships: { user: link('user', '9') } } });
        expect([created.status, firstError(created).source?.pointer]).toEqual([404, '/data/relationships/user/data']);
        expect(await rows(o.a)).toEqual(o.before);
    });

    it('F: creating or updating a profile linked to a taken user is a 409 pointing at the relationship or the foreign key', async () => {
        const o = await open();
        if (!o) return;
        const attempts: [string, string, unknown, string][] = [
            ['POST', '/profile', { data: { type: 'profile', id: '5', relationships: { user: link('user', '2') } } }, '/data/relationships/user/data'],
            ['POST', '/profile', { data: { type: 'profile', id: '5', attributes: { userId: 2 } } }, '/data/attributes/userId'],
            ['PATCH', '/profile/2', { data: { type: 'profile', id: '2', relationships: { user: link('user', '2') } } }, '/data/relationships/user/data'],
            ['PATCH', '/profile/2', { data: { type: 'profile', id: '2', attributes: { userId: 2 } } }, '/data/attributes/userId'],
            ['POST', '/profile', { data: { type: 'profile', id: '5', relationships: { user: link('user', '2') } }, meta: { operation: 'upsert', matchFields: ['id'] } }, '/data/relationships/user/data'],
        ];
        for (const [method, path, body, pointer] of attempts) {
            const res = await o.a.call(ME, method, path, body);
            expect([method, path, res.status, firstError(res).code, firstError(res).source?.pointer]).toEqual([method, path, 409, 'unique-violation', pointer]);
            expect(await rows(o.a)).toEqual(o.before);
        }
        // a free user is linked on create
        const created = await o.a.call(ME, 'POST', '/profile', { data: { type: 'profile', id: '5', relationships: { user: link('user', '3') } } });
        expect(created.status).toBe(201);
        expect([await userIdOf(o.a, 5), await userIdOf(o.a, 3)]).toEqual([3, 2]);
    });

    it('D, G: replacing a locked profile is a 403 that detaches nothing; an unlocked one is replaced', async () => {
        const o = await open();
        if (!o) return;
        const viaRelationship = await o.a.call(ME, 'PATCH', '/user/1/relationships/profile', link('profile', '2'));
        expect([viaRelationship.status, firstError(viaRelationship).code]).toEqual([403, 'forbidden']);
        expect(await rows(o.a)).toEqual(o.before);
        const viaResource = await o.a.call(ME, 'PATCH', '/user/1', { data: { type: 'user', id: '1', relationships: { profile: link('profile', '2') } } });
        expect([viaResource.status, firstError(viaResource).code]).toEqual([403, 'forbidden']);
        expect(await rows(o.a)).toEqual(o.before);

        // user 2's profile 3 is not locked: it is detached and profile 2 takes its place
        const replaced = await o.a.call(ME, 'PATCH', '/user/2/relationships/profile', link('profile', '2'));
        expect([replaced.status, docOf(replaced).data]).toEqual([200, { type: 'profile', id: 2 }]);
        expect([await userIdOf(o.a, 1), await userIdOf(o.a, 2), await userIdOf(o.a, 3)]).toEqual([1, 2, null]);
        // a user without a profile gets one
        const fresh = await o.a.call(ME, 'PATCH', '/user/3', { data: { type: 'user', id: '3', relationships: { profile: link('profile', '3') } } });
        expect(fresh.status).toBe(200);
        expect(await userIdOf(o.a, 3)).toBe(3);
    });

    it('unlinking stays policy-checked, and linking the current partner changes nothing', async () => {
        const o = await open();
        if (!o) return;
        const same = await o.a.call(ME, 'PATCH', '/user/1/relationships/profile', link('profile', '1'));
        expect([same.status, docOf(same).data]).toEqual([200, { type: 'profile', id: 1 }]);
        expect(await rows(o.a)).toEqual(o.before);
        const locked = await o.a.call(ME, 'PATCH', '/user/1/relationships/profile', { data: null });
        expect(locked.status).toBe(403);
        expect(await rows(o.a)).toEqual(o.before);

        const unlinked = await o.a.call(ME, 'PATCH', '/user/2/relationships/profile', { data: null });
        expect([unlinked.status, docOf(unlinked).data]).toEqual([200, null]);
        expect(await userIdOf(o.a, 3)).toBeNull();
        const fromOwner = await o.a.call(ME, 'PATCH', '/profile/3/relationships/user', link('user', '2'));
        expect(fromOwner.status).toBe(200);
        const again = await o.a.call(ME, 'PATCH', '/profile/3/relationships/user', { data: null });
        expect([again.status, await userIdOf(o.a, 3)]).toEqual([200, null]);
    });

    it('a required foreign key: taking a person or displacing a card is a 409, dropping one a 400, never a half-applied write', async () => {
        const o = await open();
        if (!o) return;
        const attempts: [string, string, unknown, string, string][] = [
            ['PATCH', '/card/2/relationships/person', link('person', '2'), 'unique-violation', '/data'],
            ['POST', '/card', { data: { type: 'card', id: '5', relationships: { person: link('person', '2') } } }, 'unique-violation', '/data/relationships/person/data'],
            ['PATCH', '/person/2/relationships/card', link('card', '2'), 'relationship-conflict', '/data'],
            ['PATCH', '/person/2', { data: { type: 'person', id: '2', relationships: { card: link('card', '2') } } }, 'relationship-conflict', '/data/relationships/card/data'],
        ];
        for (const [method, path, body, code, pointer] of attempts) {
            const res = await o.a.call(ME, method, path, body);
            expect([method, path, res.status, firstError(res).code, firstError(res).source?.pointer]).toEqual([method, path, 409, code, pointer]);
            expect(await rows(o.a)).toEqual(o.before);
        }
        // a card that is not there is a 404 like any other link (pointing at it), not a 409 about the current card
        for (const [path, body, pointer] of [
            ['/person/2/relationships/card', link('card', '77'), '/data'],
            ['/person/2', { data: { type: 'person', id: '2', relationships: { card: link('card', '77') } } }, '/data/relationships/card/data'],
        ] as [string, unknown, string][]) {
            const res = await o.a.call(ME, 'PATCH', path, body);
            expect([path, res.status, firstError(res).code, firstError(res).source?.pointer]).toEqual([path, 404, 'not-found', pointer]);
            expect(await rows(o.a)).toEqual(o.before);
        }
        // a card cannot be dropped from its person (the ORM refuses it even for a person without a card): a 400
        for (const person of [2, 4]) {
            const res = await o.a.call(ME, 'PATCH', `/person/${person}/relationships/card`, { data: null });
            expect([res.status, firstError(res).code, firstError(res).source?.pointer]).toEqual([400, 'invalid-payload', '/data']);
        }
        expect(await rows(o.a)).toEqual(o.before);
        // free targets are linked: card 2 moves from person 3 to person 4, and back
        const moved = await o.a.call(ME, 'PATCH', '/person/4/relationships/card', link('card', '2'));
        expect(moved.status).toBe(200);
        expect(await personIdOf(o.a, 2)).toBe(4);
        const back = await o.a.call(ME, 'PATCH', '/card/2/relationships/person', link('person', '3'));
        expect([back.status, await personIdOf(o.a, 2)]).toEqual([200, 3]);
    });
}

describe('REST one-to-one relationships [sqlite]', () => defineOneToOneTests('sqlite'));
describePg('REST one-to-one relationships', () => defineOneToOneTests('postgresql'));

describe('REST one-to-one relationships in shapes ZenStack writes its own way [sqlite]', () => {
    let api: Api;
    beforeEach(async () => {
        api = await openApi(ONE_TO_ONE_SHAPES_SCHEMA);
        await seedOneToOneShapes(api.s);
    });
    afterEach(() => api.cleanup());
    const capitals = async () => (await api.s.prisma.capital.findMany({ orderBy: { id: 'asc' } })).map((c: { cCode: string | null; cLang: string | null }) => c.cCode && `${c.cCode}_${c.cLang}`);

    it('a compound foreign key: linked from the other side, a partner the user may update detached, a locked one refused', async () => {
        const free = await api.call(ME, 'PATCH', '/country/ch_de/relationships/capital', { data: { type: 'capital', id: '2' } });
        expect(free.status).toBe(200);
        expect(await capitals()).toEqual(['fr_fr', 'ch_de', 'ch_fr']);
        const replace = await api.call(ME, 'PATCH', '/country/ch_fr/relationships/capital', { data: { type: 'capital', id: '2' } });
        expect(replace.status).toBe(200);
        expect(await capitals()).toEqual(['fr_fr', 'ch_fr', null]);
        const locked = await api.call(ME, 'PATCH', '/country/fr_fr/relationships/capital', { data: { type: 'capital', id: '3' } });
        expect([locked.status, firstError(locked).code]).toEqual([403, 'forbidden']);
        expect(await capitals()).toEqual(['fr_fr', 'ch_fr', null]);
    });

    it('a @@delegate model is written as sent, with a relation of its base beside it', async () => {
        const res = await api.call(ME, 'PATCH', '/video/1', {
            data: { type: 'video', id: '1', relationships: { cover: { data: { type: 'cover', id: '2' } }, owner: { data: { type: 'person2', id: '2' } } } },
        });
        expect(res.status).toBe(200);
        expect(await api.s.enhance().video.findUnique({ where: { id: 1 } })).toMatchObject({ coverId: 2, ownerId: 2 });
    });
});

describe('REST one-to-one relationships by a key the user may not read [sqlite]', () => {
    it('links as the ORM does (the key cannot be written), never dropping the link', async () => {
        const api = await openApi(ONE_TO_ONE_HIDDEN_KEY_SCHEMA);
        try {
            await seedOneToOneHiddenKeys(api.s);
            const res = await api.call(ME, 'PATCH', '/locker/1/relationships/member', { data: { type: 'member', id: '1' } });
            expect([res.status, docOf(res).data]).toEqual([200, { type: 'member', id: 1 }]);
            expect((await api.s.prisma.locker.findUnique({ where: { id: 1 } })).memberCode).toBe('m1');
        } finally {
            await api.cleanup();
        }
    });
});
