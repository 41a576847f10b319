import { RestApiHandler } from '../../src/api/rest';
import type { Response } from '../../src/types';
import { BLOG_SCHEMA_TEXT } from '../support/blog-text';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Request shapes users reported against `@zenstackhq/server` 2.x's JSON:API handler, each asked of this one
 * (the issue numbers are zenstackhq/zenstack's). Every case here went wrong in 2.x or is the shape that did.
 */

const ENDPOINT = 'http://localhost/api';

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
  pin      String        @default("pin-never-shown") @omit
  tenant   Tenant        @relation(fields: [tenantId], references: [id])
  notes    Note[]
  badges   MemberBadge[]
  @@id([tenantId, userKey])
  @@allow('all', true)
}

model Note {
  id             Int     @id
  text           String  @length(1, 20)
  member         Member? @relation(fields: [memberTenantId, memberKey], references: [tenantId, userKey])
  memberTenantId Int?
  memberKey      String?
  @@allow('all', true)
}

model Badge {
  id         Int           @id
  badge_code String        @unique
  holders    MemberBadge[]
  @@allow('all', true)
}

// identified by its @@unique alone: no @id
model MemberBadge {
  member   Member @relation(fields: [tenantId, userKey], references: [tenantId, userKey])
  tenantId Int
  userKey  String
  badge    Badge  @relation(fields: [badgeId], references: [id])
  badgeId  Int
  @@unique([tenantId, userKey, badgeId])
  @@allow('all', true)
}
`;

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestSchema;
const handle = RestApiHandler({ endpoint: ENDPOINT });

async function call(method: string, path: string, query: Record<string, string> = {}, body?: unknown, zod = false): Promise<{ status: number; body: Body }> {
    const res: Response = await handle({
        method,
        path,
        query,
        requestBody: body,
        prisma: s.enhance({ id: 1 }),
        modelMeta: s.modelMeta,
        zodSchemas: zod ? s.zodSchemas : undefined,
        logger: null,
    });
    return { status: res.status, body: JSON.parse(JSON.stringify(res.body ?? null)) };
}

const ids = (body: Body): unknown[] => body.data.map((r: { id: unknown }) => r.id);

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.tenant.create({ data: { id: 1, name: 'Acme' } });
    await s.prisma.tenant.create({ data: { id: 2, name: 'Globex' } });
    await s.prisma.member.create({ data: { tenantId: 1, userKey: 'alice', role: 'owner' } });
    await s.prisma.member.create({ data: { tenantId: 1, userKey: 'bob', role: 'guest' } });
    await s.prisma.member.create({ data: { tenantId: 2, userKey: 'carol', role: 'owner' } });
    await s.prisma.note.create({ data: { id: 1, text: 'from alice', memberTenantId: 1, memberKey: 'alice' } });
    await s.prisma.note.create({ data: { id: 2, text: 'from bob', memberTenantId: 1, memberKey: 'bob' } });
    // half of the compound foreign key set: no related record
    await s.prisma.note.create({ data: { id: 3, text: 'half a key', memberTenantId: 2, memberKey: null } });
    await s.prisma.badge.create({ data: { id: 7, badge_code: 'early_bird' } });
    await s.prisma.badge.create({ data: { id: 8, badge_code: 'night_owl' } });
    await s.prisma.memberBadge.create({ data: { tenantId: 1, userKey: 'alice', badgeId: 7 } });
});

afterAll(() => s.cleanup());

it('#2020: parameters through one to-many relationship at different depths all hold, each of some member', async () => {
    // tenant 1: an owner (alice) and a member with a note "from bob" (bob); tenant 2: an owner without notes
    const res = await call('GET', '/tenant', { 'filter[members][role]': 'owner', 'filter[members][notes][text]': 'from bob' });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([1]);
    // the bracketed form a qs-style adapter hands over as one nested object
    const nested = await call('GET', '/tenant', { filter: { members: { role: 'owner', notes: { text: 'from alice' } } } } as never);
    expect([nested.status, ids(nested.body)]).toEqual([200, [1]]);
    expect(ids((await call('GET', '/tenant', { 'filter[members][role]': 'owner', 'filter[members][notes][text]': 'nobody' })).body)).toEqual([]);
});

it('#2716: a compound foreign key with a null part links nothing, in every view of the relationship', async () => {
    const note = await call('GET', '/note/3', { include: 'member' });
    expect(note.status).toBe(200);
    expect(note.body.data.relationships.member.data).toBeNull();
    expect(note.body.included).toEqual([]);
    expect((await call('GET', '/note/3/relationships/member')).body.data).toBeNull();
    expect((await call('GET', '/note/3/member')).body.data).toBeNull();
    // and every id the documents carry reads back
    const list = await call('GET', '/note', { include: 'member' });
    for (const r of [...list.body.data, ...list.body.included]) {
        expect((await call('GET', `/${r.type}/${encodeURIComponent(String(r.id))}`)).status).toBe(200);
    }
});

it('#2264: a join model identified by its @@unique alone is included, linked and read by its id', async () => {
    const res = await call('GET', '/member/1_alice', { include: 'badges.badge' });
    expect(res.status).toBe(200);
    expect(res.body.data.relationships.badges.data).toEqual([{ type: 'memberBadge', id: '1_alice_7' }]);
    expect(res.body.included.map((r: { type: string; id: unknown }) => `${r.type}:${r.id}`)).toEqual(['memberBadge:1_alice_7', 'badge:7']);
    const join = await call('GET', '/memberBadge/1_alice_7');
    expect([join.status, join.body.data.relationships.badge.data]).toEqual([200, { type: 'badge', id: 7 }]);
});

it('#1801: a join record whose compound key comes from its relationships passes zod validation', async () => {
    const res = await call(
        'POST',
        '/memberBadge',
        {},
        { data: { type: 'memberBadge', relationships: { member: { data: { type: 'member', id: '1_bob' } }, badge: { data: { type: 'badge', id: '8' } } } } },
        true,
    );
    expect([res.status, res.body.data?.id]).toEqual([201, '1_bob_8']);
    expect(await s.prisma.memberBadge.count({ where: { tenantId: 1, userKey: 'bob', badgeId: 8 } })).toBe(1);
});

it('#2336: externalIdMapping names a single unique field whose name has underscores', async () => {
    const mapped = RestApiHandler({ endpoint: ENDPOINT, externalIdMapping: { Badge: 'badge_code' } });
    const get = async (path: string) => {
        const res = await mapped({ method: 'GET', path, query: {}, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null });
        return { status: res.status, body: JSON.parse(JSON.stringify(res.body)) as Body };
    };
    const one = await get('/badge/night_owl');
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ type: 'badge', id: 'night_owl', attributes: { id: 8 }, links: { self: `${ENDPOINT}/badge/night_owl` } });
    const linkage = await get('/memberBadge/1_alice_7/relationships/badge');
    expect(linkage.body.data).toEqual({ type: 'badge', id: 'early_bird' });
});

it('#984: an @omit field stays out of included and related resources too', async () => {
    for (const [path, query] of [
        ['/tenant/1', { include: 'members' }],
        ['/tenant/1/members', {}],
        ['/note', { include: 'member.tenant' }],
        ['/memberBadge', { include: 'member' }],
    ] as const) {
        const res = await call('GET', path, query);
        expect(res.status).toBe(200);
        expect(res.body.included ?? res.body.data).not.toHaveLength(0);
        expect(JSON.stringify(res.body)).not.toContain('pin-never-shown');
    }
});

it('#1719: one handler serves two schemas, each request with its own model metadata', async () => {
    const blog = await loadSchema(BLOG_SCHEMA_TEXT);
    try {
        const ask = (schema: TestSchema, path: string) => handle({ method: 'GET', path, query: {}, prisma: schema.enhance({ id: 1 }), modelMeta: schema.modelMeta, logger: null });
        expect((await ask(s, '/tenant')).status).toBe(200);
        expect((await ask(blog, '/post')).status).toBe(200);
        expect((await ask(s, '/tenant/1')).status).toBe(200);
        const other = await ask(blog, '/tenant');
        expect([other.status, (other.body as Body).errors[0].code]).toEqual([404, 'unsupported-model']);
    } finally {
        await blog.cleanup();
    }
});
