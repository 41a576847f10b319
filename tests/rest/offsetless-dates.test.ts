import { firstError, openApi, type Api } from './write/harness';

/**
 * A date-time without its offset (`2024-01-03T00:00:00`) was read by `new Date` in the server's time zone: the same
 * filter selected other rows, and the same write stored another instant, on a server in New York than in Tokyo (2.x
 * refuses it, as Prisma does). It is a 400 in every place a DateTime is read; a date alone (midnight UTC) and a
 * date-time with its offset are read as before.
 */
const SCHEMA = `
model Event {
  id Int      @id
  at DateTime
  @@allow('all', true)
}

model Day {
  day   DateTime @id
  label String   @default('')
  @@allow('all', true)
}
`;

const AT = new Date('2024-01-03T00:00:00.000Z');

describe('DateTime values without an offset', () => {
    let api: Api;
    beforeAll(async () => {
        api = await openApi(SCHEMA);
        await api.s.prisma.event.create({ data: { id: 1, at: AT } });
        await api.s.prisma.day.create({ data: { day: AT } });
    });
    afterAll(() => api.cleanup());

    const get = (path: string, query: Record<string, string>) => api.call(undefined, 'GET', path, undefined, { query });
    const ids = async (query: Record<string, string>) => (await get('/event', query)).body as { data: Array<{ id: number }> }; // integer ids stay numbers, as in 2.x

    it.each(['2024-01-03T00:00:00', '2024-01-03T00:00', '2024-01-03 00:00:00.000'])('filter %s is a 400', async (when) => {
        for (const key of ['filter[at]', 'filter[at$lt]', 'filter[at$gte]']) {
            const res = await get('/event', { [key]: when });
            expect([key, res.status, firstError(res).code]).toEqual([key, 400, 'invalid-value']);
        }
    });

    it('a write is a 400, and nothing is written', async () => {
        const created = await api.call(undefined, 'POST', '/event', { data: { type: 'event', id: '2', attributes: { at: '2024-01-03T00:00:00' } } });
        expect([created.status, firstError(created).source]).toEqual([400, { pointer: '/data/attributes/at' }]);
        const updated = await api.call(undefined, 'PATCH', '/event/1', { data: { type: 'event', id: '1', attributes: { at: '2024-01-04T00:00:00' } } });
        expect(updated.status).toBe(400);
        expect(await api.s.prisma.event.findMany()).toEqual([{ id: 1, at: AT }]);
    });

    it('an id is a 400 too', async () => {
        const res = await get('/day/2024-01-03T00:00:00', {});
        expect(res.status).toBe(400);
    });

    it('a date alone and a date-time with its offset are read as before', async () => {
        expect((await ids({ 'filter[at]': '2024-01-03' })).data.map((r) => r.id)).toEqual([1]);
        expect((await ids({ 'filter[at]': '2024-01-03T09:00:00+09:00' })).data.map((r) => r.id)).toEqual([1]);
        expect((await ids({ 'filter[at$lt]': '2024-01-03T00:00Z' })).data).toEqual([]);
        expect((await get('/day/2024-01-03T00:00:00.000Z', {})).status).toBe(200);
    });
});
