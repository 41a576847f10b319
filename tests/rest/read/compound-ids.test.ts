import { loadSchema, type TestSchema } from '../../support/schema';
import { ENDPOINT, JSONAPI, makeApi, type Api } from './support';

/** Compound ids, foreign keys that reference a non-id unique field, mapped type names and the id divider. */

const SCHEMA = `
model Tenant {
  id      Int      @id
  name    String
  members Member[]
  @@allow('all', true)
}

model Member {
  tenantId Int
  userKey  String
  role     String
  tenant   Tenant @relation(fields: [tenantId], references: [id])
  notes    Note[]
  @@id([tenantId, userKey])
  @@allow('all', true)
}

model Note {
  id             Int    @id
  text           String
  member         Member @relation(fields: [memberTenantId, memberKey], references: [tenantId, userKey])
  memberTenantId Int
  memberKey      String
  @@allow('all', true)
}

model Account {
  id     Int     @id
  code   String  @unique
  logins Login[]
  @@allow('all', true)
}

model Login {
  id          Int     @id
  account     Account @relation(fields: [accountCode], references: [code])
  accountCode String
  @@allow('all', true)
}
`;

describe('REST reads with compound ids', () => {
    let s: TestSchema;
    let api: Api;
    const url = (p: string) => `${ENDPOINT}${p}`;

    beforeAll(async () => {
        s = await loadSchema(SCHEMA);
        await s.prisma.tenant.create({ data: { id: 1, name: 'Acme' } });
        await s.prisma.member.create({ data: { tenantId: 1, userKey: 'alice', role: 'owner' } });
        await s.prisma.member.create({ data: { tenantId: 1, userKey: 'a/b c', role: 'guest' } });
        await s.prisma.note.create({ data: { id: 1, text: 'hi', memberTenantId: 1, memberKey: 'alice' } });
        await s.prisma.note.create({ data: { id: 2, text: 'yo', memberTenantId: 1, memberKey: 'a/b c' } });
        await s.prisma.account.create({ data: { id: 7, code: 'ACC-7', logins: { create: { id: 1 } } } });
        api = makeApi(s, { modelNameMapping: { Tenant: 'tenants' } });
    });
    afterAll(() => s.cleanup());

    it('renders a compound id joined with the divider, its parts as attributes, with links and FK linkage', async () => {
        const res = await api.get('/member/1_alice');
        expect(res.status).toBe(200);
        expect(api.body(res)).toEqual({
            data: {
                type: 'member',
                id: '1_alice',
                attributes: { tenantId: 1, userKey: 'alice', role: 'owner' },
                relationships: {
                    tenant: { links: { self: url('/member/1_alice/relationships/tenant'), related: url('/member/1_alice/tenant') }, data: { type: 'tenant', id: 1 } },
                    notes: { links: { self: url('/member/1_alice/relationships/notes'), related: url('/member/1_alice/notes') } },
                },
                links: { self: url('/member/1_alice') },
            },
            links: { self: url('/member/1_alice') },
            jsonapi: JSONAPI,
        });
    });

    it('builds to-one linkage from compound foreign keys', async () => {
        const body = api.body(await api.get('/note/2'));
        expect(body.data.attributes).toEqual({ text: 'yo', memberTenantId: 1, memberKey: 'a/b c' });
        expect(body.data.relationships.member.data).toEqual({ type: 'member', id: '1_a/b c' });
    });

    it('encodes ids in links and decodes them in paths', async () => {
        const res = await api.get('/member/1_a%2Fb%20c');
        expect(res.status).toBe(200);
        expect(api.body(res).data.links.self).toBe(url('/member/1_a%2Fb%20c'));
    });

    it('reads related resources and relationships of compound-id resources', async () => {
        const notes = api.body(await api.get('/member/1_alice/notes'));
        expect(notes.data.map((r: { id: number }) => r.id)).toEqual([1]);
        const rel = api.body(await api.get('/member/1_alice/relationships/notes'));
        expect(rel.data).toEqual([{ type: 'note', id: 1 }]);
        const member = api.body(await api.get('/note/1/member/1_alice'));
        expect(member.data.id).toBe('1_alice');
        expect((await api.get('/note/1/member/1_a%2Fb%20c')).status).toBe(404);
        const included = api.body(await api.get('/tenants/1', { include: 'members.notes' }));
        expect(included.included.map((r: { type: string; id: unknown }) => `${r.type}:${r.id}`)).toEqual(['member:1_a/b c', 'member:1_alice', 'note:2', 'note:1']);
    });

    it('filters by compound related ids', async () => {
        const body = api.body(await api.get('/note', { 'filter[member]': '1_alice' }));
        expect(body.data.map((r: { id: number }) => r.id)).toEqual([1]);
        const both = api.body(await api.get('/note', { 'filter[member]': '1_alice,1_a/b c' }));
        expect(both.data.map((r: { id: number }) => r.id)).toEqual([1, 2]);
        const bad = api.body(await api.get('/note', { 'filter[member]': 'alice' }));
        expect(bad.errors[0]).toMatchObject({ status: 400, code: 'invalid-value' });
    });

    it('rejects malformed compound ids and answers 404 for unknown ones', async () => {
        expect(api.body(await api.get('/member/1')).errors[0]).toMatchObject({ status: 400, code: 'invalid-id' });
        expect(api.body(await api.get('/member/x_alice')).errors[0]).toMatchObject({ status: 400, code: 'invalid-id' });
        expect(api.body(await api.get('/member/2_alice')).errors[0]).toMatchObject({ status: 404, code: 'not-found' });
    });

    it('reads linkage through a foreign key that references a unique non-id field', async () => {
        const body = api.body(await api.get('/login/1'));
        expect(body.data.attributes).toEqual({ accountCode: 'ACC-7' });
        expect(body.data.relationships.account.data).toEqual({ type: 'account', id: 7 });
        const rel = api.body(await api.get('/login/1/relationships/account'));
        expect(rel.data).toEqual({ type: 'account', id: 7 });
        expect(api.body(await api.get('/login', { 'filter[account]': '7' })).data).toHaveLength(1);
    });

    it('uses mapped names in URLs only, as 2.x does: documents keep the model type, bodies may give either', async () => {
        const body = api.body(await api.get('/tenants/1', { 'fields[tenants]': 'name' }));
        expect(body.data).toMatchObject({ type: 'tenant', id: 1, links: { self: url('/tenants/1') } });
        expect(Object.keys(body.data.attributes)).toEqual(['name']); // fields[] takes the mapped name too
        expect(api.body(await api.get('/tenant/1')).errors[0]).toMatchObject({ status: 404, code: 'unsupported-model' });
    });

    it('honours the idDivider option', async () => {
        const colon = makeApi(s, { idDivider: ':' });
        const body = colon.body(await colon.get('/member/1:alice'));
        expect(body.data.id).toBe('1:alice');
        expect(body.data.links.self).toBe(url('/member/1:alice'));
        expect(colon.body(await colon.get('/note/1')).data.relationships.member.data).toEqual({ type: 'member', id: '1:alice' });
    });

    it('writes a divider that may stand in a path segment literally, so its links pass a urlSegmentCharset admitting it', async () => {
        // 2.x writes `/member/1:alice`; a link written `1%3Aalice` was refused (400 invalid-path) by the same handler
        const colon = makeApi(s, { idDivider: ':', urlSegmentCharset: 'a-z0-9:' });
        const body = colon.body(await colon.get('/member/1:alice'));
        const links = [body.links.self, body.data.links.self, body.data.relationships.notes.links.self, body.data.relationships.notes.links.related];
        for (const link of links) {
            const res = await colon.get(new URL(link).pathname.slice(new URL(ENDPOINT).pathname.length));
            expect([link, res.status]).toEqual([link, 200]);
        }
        expect(links[0]).toBe(url('/member/1:alice'));
    });
});
