import { rpcAs } from '../../policy/rpc-call';
import type { Provider } from '../../support/schema';
import { describePg } from '../../support/postgres';
import { openForSuite, type Api } from './harness';

/**
 * Related records with a `Bytes` id. Their ids were compared as JSON text, where a `Buffer` (decoded from a request)
 * and a `Uint8Array` (read from Prisma 6) of the same bytes differ: `DELETE /p/1/relationships/bs` answered 200 and
 * removed nothing, and naming a current member in a PATCH or POST (a change of nothing) answered 404. Found by a review
 * on 2026-12-01.
 */

const SCHEMA = `
model P {
  id  Int  @id
  bs  B[]
  cs  C[]
  one B1?
  @@allow('all', true)
}
model B {
  id  Bytes @id
  p   P?    @relation(fields: [pId], references: [id])
  pId Int?
  @@allow('read,create', true)
  @@allow('update', id != 'Aw==')
}
model C {
  id  Bytes @id
  p   P?    @relation(fields: [pId], references: [id])
  pId Int?
  @@allow('read,create', true)
}
model B1 {
  id  Bytes @id
  p   P?    @relation(fields: [pId], references: [id])
  pId Int?  @unique
  @@allow('read,create', true)
}
`;

const bytes = (...values: number[]) => Uint8Array.from(values);

function cases(provider: Provider): void {
    let api: Api;
    const ready = openForSuite(SCHEMA, provider, (a) => (api = a));
    beforeEach(async () => {
        if (!(await ready())) return;
        await api.s.prisma.b.deleteMany();
        await api.s.prisma.b1.deleteMany();
        await api.s.prisma.c.deleteMany();
        await api.s.prisma.p.deleteMany();
        await api.s.prisma.p.create({ data: { id: 1 } });
        await api.s.prisma.b.createMany({ data: [bytes(1), bytes(2), bytes(0xfb, 0xff)].map((id) => ({ id, pId: 1 })) });
        await api.s.prisma.b.create({ data: { id: bytes(3) } });
        await api.s.prisma.b1.create({ data: { id: bytes(7), pId: 1 } });
        await api.s.prisma.c.createMany({ data: [{ id: bytes(1), pId: 1 }, { id: bytes(2), pId: 1 }] });
    });
    const members = async () =>
        ((await api.s.prisma.b.findMany({ where: { pId: 1 }, orderBy: { id: 'asc' } })) as Array<{ id: Uint8Array }>).map((b) => Buffer.from(b.id).toString('base64'));
    const rel = (...ids: string[]) => ({ data: ids.map((id) => ({ type: 'b', id })) });

    it('a member named in a DELETE of the relationship is removed', async () => {
        if (!(await ready())) return;
        const res = await api.call({ id: 1 }, 'DELETE', '/p/1/relationships/bs', rel('Ag=='));
        expect(res.status).toBe(200);
        expect(await members()).toEqual(['AQ==', '+/8=']);
        // the URL-safe form names the same bytes
        expect((await api.call({ id: 1 }, 'DELETE', '/p/1/relationships/bs', rel('-_8'))).status).toBe(200);
        expect(await members()).toEqual(['AQ==']);
    });

    it('naming the current members changes nothing and succeeds', async () => {
        if (!(await ready())) return;
        await api.s.prisma.b.update({ where: { id: bytes(2) }, data: { pId: null } });
        const before = await members();
        for (const [method, path, body] of [
            ['PATCH', '/p/1/relationships/bs', rel('AQ==', '+/8=')],
            ['POST', '/p/1/relationships/bs', rel('AQ==')],
            ['PATCH', '/p/1', { data: { type: 'p', id: '1', relationships: { bs: rel('AQ==', '+/8=') } } }],
            ['PATCH', '/p/1/relationships/one', { data: { type: 'b1', id: 'Bw==' } }],
        ] as const) {
            const res = await api.call({ id: 1 }, method, path, body);
            expect([method, path, res.status]).toEqual([method, path, 200]);
        }
        expect(await members()).toEqual(before);
    });

    it('a member the rules keep where it is is still refused', async () => {
        if (!(await ready())) return;
        const res = await api.call({ id: 1 }, 'POST', '/p/1/relationships/bs', rel('Aw=='));
        expect(res.status).toBe(403);
        expect(await members()).toEqual(['AQ==', 'Ag==', '+/8=']);
    });

    it('RPC: a set naming the current members writes nothing (members nobody may update; a regression guard, RPC decodes Bytes as the ORM answers them)', async () => {
        if (!(await ready())) return;
        const args = { where: { id: 1 }, data: { cs: { set: [{ id: bytes(2) }, { id: bytes(1) }] } } };
        const res = await rpcAs(api.s, { id: 1 }, 'PUT', '/p/update', args);
        expect(res.status).toBe(200);
        expect(await api.s.prisma.c.count({ where: { pId: 1 } })).toBe(2);
    });
}

describe('REST and RPC: members with a Bytes id (SQLite)', () => cases('sqlite'));
describePg('REST and RPC: members with a Bytes id', () => cases('postgresql'));
