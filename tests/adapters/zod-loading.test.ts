import { spawnSync } from 'node:child_process';
import { PROJECT_ROOT } from '../support/generate';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Which parts of ZenStack's generated zod output (`node_modules/.zenstack/zod`: `models`, `input`, `objects`) the
 * handlers load. The input and object schemas are most of it, and they require each other along every relation: on
 * a generated schema of 50 models they took 4 s and 435 MiB of heap to load, on 150 models 20 s and 1.4 GiB (and more
 * stack than Node has by default), the model schemas 0.1 s and 18 MiB, 0.7 s and 46 MiB (bench/cold-start.ts). The
 * REST handler reads only the model schemas; only RPC validation needs the input schemas. Loading is observed in a
 * plain Node process (its `require.cache`), on the blog schema: the default generated output is the project's.
 */

let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'alice@example.com' } });
});

afterAll(() => s?.cleanup());

/** Runs `body` (statements in an async function, `s` the test database's clients, `loaded()` what is loaded) in a plain Node process; what it prints. */
function runInNode(body: string): unknown[] {
    const script = `
        const { connectSchema } = require('./tests/support/generated');
        const parts = ['models', 'input', 'objects'];
        const loaded = () => Object.fromEntries(parts.map((p) => [p, Object.keys(require.cache).some((k) => k.includes('/node_modules/.zenstack/zod/' + p + '/'))]));
        (async () => {
            const s = await connectSchema(${JSON.stringify(s.generatedDir)}, ${JSON.stringify(s.databaseUrl)});
            try { ${body} } finally { await s.cleanup(); }
        })().catch((e) => { console.error(e); process.exit(1); });`;
    const out = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`the script failed (${out.status}): ${out.stderr}`);
    return out.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
}

describe('loading the generated zod schemas', () => {
    it('REST without zod schemas: an enum filter and an enum attribute are checked from the model schemas alone', () => {
        const printed = runInNode(`
            const { RestApiHandler } = require('./src/api/rest');
            const handle = RestApiHandler({ endpoint: 'http://localhost/api' });
            // no modelMeta, no zodSchemas: the generated defaults, as the adapters pass them by default
            const call = (method, path, query, requestBody) => handle({ method, path, query, requestBody, prisma: s.enhance({ id: 1 }), logger: null });
            const bad = await call('GET', '/user', { 'filter[role]': 'BOSS' });
            console.log(JSON.stringify([bad.status, bad.body.errors[0].detail]));
            const write = await call('PATCH', '/user/1', {}, { data: { type: 'user', id: '1', attributes: { role: 'BOSS' } } });
            console.log(JSON.stringify([write.status, write.body.errors[0].source]));
            const good = await call('GET', '/user', { 'filter[role]': 'USER' });
            console.log(JSON.stringify([good.status, good.body.data.map((r) => r.id)]));
            console.log(JSON.stringify(loaded()));`);
        expect(printed).toEqual([
            [400, expect.stringMatching(/one of USER, ADMIN/)],
            [400, { pointer: '/data/attributes/role' }],
            [200, [1]],
            { models: true, input: false, objects: false },
        ]);
    });

    it('an adapter with zodSchemas: true loads the input schemas when the RPC handler first validates, not when created', () => {
        const printed = runInNode(`
            const { createFetchHandler } = require('./src/adapters/fetch');
            const { RestApiHandler } = require('./src/api/rest');
            const getPrisma = () => s.enhance({ id: 1 });
            const rpc = createFetchHandler({ zodSchemas: true, getPrisma, prefix: '/api/model' });
            const rest = createFetchHandler({ zodSchemas: true, getPrisma, prefix: '/api/rest', handler: RestApiHandler({ endpoint: 'http://localhost/api/rest' }) });
            console.log(JSON.stringify(loaded()));
            const post = (url, body) => new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
            // @length(1, 200) on the title: the zod schemas' rule
            let res = await rest(post('http://localhost/api/rest/post', { data: { type: 'post', attributes: { title: '' }, relationships: { author: { data: { type: 'user', id: '1' } } } } }));
            console.log(JSON.stringify([res.status, (await res.json()).errors[0].source]));
            console.log(JSON.stringify(loaded()));
            res = await rpc(post('http://localhost/api/model/post/create', { data: { title: '', author: { connect: { id: 1 } } } }));
            console.log(JSON.stringify([res.status, (await res.json()).error.rejectedByValidation]));
            res = await rpc(post('http://localhost/api/model/post/create', { data: { title: 'ok', author: { connect: { id: 1 } } } }));
            console.log(JSON.stringify([res.status]));
            console.log(JSON.stringify(loaded()));`);
        expect(printed).toEqual([
            { models: true, input: false, objects: false },
            [422, { pointer: '/data/attributes/title' }],
            { models: true, input: false, objects: false },
            [422, true],
            [201],
            { models: true, input: true, objects: true },
        ]);
    });
});
