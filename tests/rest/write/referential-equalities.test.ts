import { RestApiHandler as UpstreamRestApiHandler } from '@zenstackhq/server/api/rest';
import SuperJSON from 'superjson';
import { loadSchema } from '../../support/schema';
import { ENDPOINT } from './fixtures';
import { errorsOf, openApi, type Api } from './harness';

/**
 * A JSON:API body encoded by a superjson client with `dedupe: true` sends a value it holds twice only once,
 * with `null` in its other places and those places in `meta.serialization.referentialEqualities`. 2.x hands the
 * whole metadata to superjson, which puts the value back; so does ours.
 */

const dedupe = new SuperJSON({ dedupe: true });

function encoded(doc: { data: unknown }): Record<string, unknown> {
    const { json, meta } = dedupe.serialize(doc);
    return { ...(json as Record<string, unknown>), meta: { serialization: meta } };
}

let api: Api;

beforeAll(async () => {
    api = await openApi();
});

afterAll(() => api.cleanup());

it('the client really sends the repeated value once', () => {
    const same = { k: 1 };
    const body = encoded({ data: { type: 'allTypes', attributes: { json: { x: same, y: same } } } }) as { data: { attributes: { json: unknown } } };
    expect(body.data.attributes.json).toEqual({ x: { k: 1 }, y: null });
});

it('a value given twice in a Json attribute is stored in both places, as 2.22.3 stores it', async () => {
    const same = { k: 1, list: [1, 2] };
    const body = encoded({ data: { type: 'allTypes', attributes: { string: 'dedupe', json: { x: same, y: same }, dateTime: new Date('2024-05-01T00:00:00Z') } } });
    const res = await api.call(undefined, 'post', '/allTypes', body);
    expect(res.status).toBe(201);
    const stored = await api.s.prisma.allTypes.findFirst({ where: { string: 'dedupe' } });
    expect(stored.json).toEqual({ x: same, y: same });

    const up = await loadSchema();
    try {
        const handle = UpstreamRestApiHandler({ endpoint: ENDPOINT });
        const theirs = await handle({ method: 'post', path: '/allTypes', query: {}, requestBody: body, prisma: up.enhance(undefined), modelMeta: up.modelMeta } as never);
        expect(theirs.status).toBe(201);
        expect((await up.prisma.allTypes.findFirst({ where: { string: 'dedupe' } })).json).toEqual(stored.json);
    } finally {
        await up.cleanup();
    }
});

it('paths that name nothing or leave the data, and malformed metadata, are a 400, and nothing is written', async () => {
    const deep = { data: { type: 'allTypes', attributes: { string: 'refused', json: { a: null } } } };
    const cases: unknown[] = [
        { 'data.attributes.json.none': ['data.attributes.json.a'] },
        { 'data.attributes.json': ['data.attributes.json.a.b'] },
        { 'data.attributes.json.a': ['meta.x'] },
        { 'data.attributes.json.a': ['data.attributes.__proto__'] },
        ['data.attributes.json'],
    ];
    for (const refs of cases) {
        const res = await api.call(undefined, 'post', '/allTypes', { ...deep, meta: { serialization: { referentialEqualities: refs } } });
        expect(res.status).toBe(400);
        expect(errorsOf(res)[0].code).toBe('invalid-payload');
    }
    expect(await api.s.prisma.allTypes.count({ where: { string: 'refused' } })).toBe(0);
});

it('a value copied into a place inside itself, by ever higher sources, is refused once it would nest too deep', async () => {
    // json.a.a…a (12 levels) ending in null; each entry copies an ancestor one level higher than the last into the
    // null at the bottom, so the depth below the sources doubles with every entry (4,000 levels after 12)
    const levels = 12;
    const refs: Record<string, string[]> = {};
    let depth = levels;
    for (let k = 1; k <= levels; k++) {
        const source = `data.attributes.json${'.a'.repeat(levels - k)}`;
        refs[source] = [`data.attributes.json${'.a'.repeat(depth)}`];
        depth += depth - (levels - k);
    }
    const json = JSON.parse(`${'{"a":'.repeat(levels)}null${'}'.repeat(levels)}`);
    const body = { data: { type: 'allTypes', attributes: { string: 'too-deep', json } }, meta: { serialization: { referentialEqualities: refs } } };
    const res = await api.call(undefined, 'post', '/allTypes', body);
    expect(res.status).toBe(400);
    expect(errorsOf(res)[0].detail).toMatch(/deeper/);
    expect(await api.s.prisma.allTypes.count({ where: { string: 'too-deep' } })).toBe(0);
});
