import { RestApiHandler } from '../../../src/api/rest';
import type { LoggerConfig, Response } from '../../../src/types';
import { requirePg } from '../../support/postgres';
import { loadSchema, type LoadOptions, type Provider, type TestSchema } from '../../support/schema';
import { ENDPOINT } from './fixtures';

/** A user as the enhanced client sees it; `undefined` = anonymous. */
export type User = { id: number } | undefined;

export interface CallOptions {
    query?: Record<string, string | string[]>;
    /** Pass the generated zod schemas in the request context (validation before writes). */
    zod?: boolean;
    logger?: LoggerConfig | null;
}

/** One JSON:API error object as the handler renders it. */
export interface ErrorObject {
    status: number;
    code: string;
    title: string;
    detail: string;
    ormCode?: string;
    reason?: string;
    source?: { pointer?: string };
    /** On the first error object of a validation failure: the raw zod issues, as 2.x answered them. */
    zodErrors?: { issues: { code: string; message: string; path: (string | number)[] }[]; name: string };
}

export interface Api {
    s: TestSchema;
    /** Calls the handler as `user` through the public `handle(ctx)` contract. */
    call(user: User, method: string, path: string, body?: unknown, options?: CallOptions): Promise<Response>;
    cleanup(): Promise<void>;
}

export async function openApi(zmodel?: string, provider: Provider = 'sqlite', options: Omit<LoadOptions, 'provider'> = {}): Promise<Api> {
    const s = await loadSchema(zmodel, { ...options, provider });
    const handle = RestApiHandler({ endpoint: ENDPOINT });
    return {
        s,
        call: (user, method, path, body, options = {}) =>
            handle({
                method,
                path,
                query: options.query ?? {},
                requestBody: body,
                prisma: s.enhance(user),
                modelMeta: s.modelMeta,
                zodSchemas: options.zod ? s.zodSchemas : undefined,
                logger: options.logger === undefined ? null : options.logger,
            }),
        cleanup: () => s.cleanup(),
    };
}

/**
 * Opens `zmodel` on `provider` once for the enclosing `describe` and cleans it up after; `opened` receives it. The
 * returned `ready()` says whether it is there (PostgreSQL may be missing outside CI: the tests then return at once).
 */
export function openForSuite(zmodel: string, provider: Provider, opened: (api: Api) => void): () => Promise<boolean> {
    let api: Api | undefined;
    const ready = async () => provider === 'sqlite' || (await requirePg());
    beforeAll(async () => {
        if (!(await ready())) return;
        api = await openApi(zmodel, provider);
        opened(api);
    });
    afterAll(async () => {
        await api?.cleanup();
    });
    return ready;
}

/** The rows of a test database by model, as `snapshot` reads them. */
export type Rows = Record<string, unknown[]>;

/**
 * A fresh database of `zmodel` on `provider` for each test of the enclosing `describe` (cleaned up after it), seeded
 * by `seed`: `open()` gives it with its rows of `models` before the test, or undefined when PostgreSQL is not there
 * (reported by describePg).
 */
export function freshPerTest(zmodel: string, provider: Provider, seed: (a: Api) => Promise<void>, models: readonly string[]): () => Promise<{ a: Api; before: Rows } | undefined> {
    let api: Api | undefined;
    afterEach(async () => {
        await api?.cleanup();
        api = undefined;
    });
    return async () => {
        if (provider === 'postgresql' && !(await requirePg())) return undefined;
        api = await openApi(zmodel, provider);
        await seed(api);
        return { a: api, before: await snapshot(api.s, models) };
    };
}

export function errorsOf(res: Response): ErrorObject[] {
    return (res.body as { errors: ErrorObject[] }).errors;
}

export function firstError(res: Response): ErrorObject {
    const errors = errorsOf(res);
    if (!Array.isArray(errors) || errors.length === 0) throw new Error(`not an error response: ${JSON.stringify(res.body)}`);
    return errors[0];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Doc = { data: any; included?: any[]; meta?: any; links?: any; jsonapi?: any };

export function docOf(res: Response): Doc {
    return res.body as Doc;
}

/** Every row of every table, read with the raw client (policies bypassed), ordered by id: what "nothing written" compares. */
export async function snapshot(s: TestSchema, models: readonly string[]): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const m of models) {
        const idFields = Object.values(s.modelMeta.models[m].fields)
            .filter((f) => f.isId)
            .map((f) => ({ [f.name]: 'asc' as const }));
        out[m] = await s.prisma[m].findMany({ orderBy: idFields });
    }
    return out;
}

export const BLOG_MODELS = ['user', 'profile', 'post', 'comment', 'allTypes'] as const;

/** The blog seed most tests share: two users; user 1 has a draft and a published post with a comment. */
export async function seedBlog(s: TestSchema): Promise<{ u1: number; u2: number; draft: number; pub: number; comment: number; u2draft: number }> {
    const u1 = await s.prisma.user.create({ data: { email: 'u1@x', name: 'One' } });
    const u2 = await s.prisma.user.create({ data: { email: 'u2@x', name: 'Two' } });
    const draft = await s.prisma.post.create({ data: { title: 'draft', authorId: u1.id } });
    const pub = await s.prisma.post.create({ data: { title: 'pub', published: true, authorId: u1.id } });
    const comment = await s.prisma.comment.create({ data: { content: 'nice', postId: pub.id } });
    const u2draft = await s.prisma.post.create({ data: { title: 'u2 draft', authorId: u2.id } });
    return { u1: u1.id, u2: u2.id, draft: draft.id, pub: pub.id, comment: comment.id, u2draft: u2draft.id };
}
