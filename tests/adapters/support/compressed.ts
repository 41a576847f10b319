import type http from 'node:http';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import type { AdapterFixture } from './fixture';

/** POSTs a gzip-compressed RPC `user/create` to `server` and checks it is refused with 415, nothing written. */
export async function expectCompressedBodyRefused(server: http.Server, url: string, f: AdapterFixture): Promise<void> {
    const res = await request(server)
        .post(url)
        .set('content-type', 'application/json')
        .set('content-encoding', 'gzip')
        .send(gzipSync(JSON.stringify({ data: { email: 'gzip@x.io' } })));
    expect(res.status).toBe(415);
    expect(res.body.error.message).toMatch(/unsupported content encoding "gzip"/);
    expect(await f.schema.prisma.user.count({ where: { email: 'gzip@x.io' } })).toBe(0);
}
