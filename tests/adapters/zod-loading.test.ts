import { spawnSync } from 'node:child_process';
import { PROJECT_ROOT, TS_REGISTER } from '../support/generate';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Which parts of ZenStack's generated zod output (`node_modules/.zenstack/zod`: `models`, `input`, `objects`) the
 * handlers load. The input and object schemas are most of it, and they require each other along every relation: on
 * a generated schema of 50 models they took 4 s of CPU and 435 MiB of heap to load, and overflowed Node's default
 * stack; the model schemas 0.1 s and 18 MiB (bench/cold-start.ts, docs/performance.md). The
 * REST handler reads only the model schemas; only RPC validation needs the input schemas. Loading is observed in a
 * plain Node process (its `require.cache`), on the blog schema: the default generated output is the project's.
 */

let s: TestSchema;
/** What the script printed, by label. */
let printed: Record<string, unknown>;

/**
 * One plain Node process (loading is process-wide, and starting one is most of the time), in this order: the REST
 * handler without zod schemas and with the default metadata, then adapters created with `zodSchemas: true`, a REST
 * write through one, and an RPC create through the other.
 */
const SCRIPT = `
    const { PrismaClient } = require(dir + '/prisma-client');
    const { enhance } = require(dir + '/zenstack/enhance.js');
    const { PrismaBetterSQLite3 } = require('@prisma/adapter-better-sqlite3');
    const { RestApiHandler } = require('./src/api/rest');
    const { createFetchHandler } = require('./src/adapters/fetch');
    const parts = ['models', 'input', 'objects'];
    const loaded = () => Object.fromEntries(parts.map((p) => [p, Object.keys(require.cache).some((k) => k.includes('/node_modules/.zenstack/zod/' + p + '/'))]));
    const out = {};
    const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
    const getPrisma = () => enhance(prisma, { user: { id: 1 } });

    // no modelMeta, no zodSchemas: the generated defaults, as the adapters pass them by default
    const handle = RestApiHandler({ endpoint: 'http://localhost/api' });
    const call = (method, path, query, requestBody) => handle({ method, path, query, requestBody, prisma: getPrisma(), logger: null });
    const bad = await call('GET', '/user', { 'filter[role]': 'BOSS' });
    out.enumFilter = [bad.status, bad.body.errors[0].detail];
    const write = await call('PATCH', '/user/1', {}, { data: { type: 'user', id: '1', attributes: { role: 'BOSS' } } });
    out.enumAttribute = [write.status, write.body.errors[0].source];
    const good = await call('GET', '/user', { 'filter[role]': 'USER' });
    out.goodFilter = [good.status, good.body.data.map((r) => r.id)];
    out.afterRest = loaded();

    const rpc = createFetchHandler({ zodSchemas: true, getPrisma, prefix: '/api/model' });
    const rest = createFetchHandler({ zodSchemas: true, getPrisma, prefix: '/api/rest', handler: RestApiHandler({ endpoint: 'http://localhost/api/rest' }) });
    out.afterCreated = loaded();
    const post = (url, body) => new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    // @length(1, 200) on the title: the zod schemas' rule
    let res = await rest(post('http://localhost/api/rest/post', { data: { type: 'post', attributes: { title: '' }, relationships: { author: { data: { type: 'user', id: '1' } } } } }));
    out.restValidated = [res.status, (await res.json()).errors[0].source];
    out.afterRestAdapter = loaded();
    res = await rpc(post('http://localhost/api/model/post/create', { data: { title: '', author: { connect: { id: 1 } } } }));
    out.rpcValidated = [res.status, (await res.json()).error.rejectedByValidation];
    res = await rpc(post('http://localhost/api/model/post/create', { data: { title: 'ok', author: { connect: { id: 1 } } } }));
    out.rpcCreated = res.status;
    out.afterRpc = loaded();
    await prisma.$disconnect();
    console.log(JSON.stringify(out));`;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'alice@example.com' } });
    const script = `const dir = ${JSON.stringify(s.generatedDir)}, url = ${JSON.stringify(s.databaseUrl)};
        (async () => { ${SCRIPT} })().catch((e) => { console.error(e); process.exit(1); });`;
    const out = spawnSync(process.execPath, ['-r', TS_REGISTER, '-e', script], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`the script failed (${out.status}): ${out.stderr}`);
    printed = JSON.parse(out.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
});

afterAll(() => s?.cleanup());

describe('loading the generated zod schemas', () => {
    it('REST without zod schemas: an enum filter and an enum attribute are checked from the model schemas alone', () => {
        expect(printed).toMatchObject({
            enumFilter: [400, expect.stringMatching(/one of USER, ADMIN/)],
            enumAttribute: [400, { pointer: '/data/attributes/role' }],
            goodFilter: [200, [1]],
            afterRest: { models: true, input: false, objects: false },
        });
    });

    it('an adapter with zodSchemas: true loads the input schemas when the RPC handler first validates, not when created', () => {
        expect(printed).toMatchObject({
            afterCreated: { models: true, input: false, objects: false },
            restValidated: [422, { pointer: '/data/attributes/title' }],
            afterRestAdapter: { models: true, input: false, objects: false },
            rpcValidated: [422, true],
            rpcCreated: 201,
            afterRpc: { models: true, input: true, objects: true },
        });
    });
});
