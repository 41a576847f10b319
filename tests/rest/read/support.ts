import type { ModelMeta } from '@zenstackhq/runtime';
import path from 'node:path';
import { RestApiHandler, type RestApiHandlerOptions } from '../../../src/api/rest';
import { normalizeOptions } from '../../../src/api/rest/options';
import { buildRestSchema, type RestSchema } from '../../../src/api/rest/schema';
import type { Response } from '../../../src/types';
import { BLOG_SCHEMA_TEXT } from '../../support/blog-text';
import { generateSchema } from '../../support/generate';
import { loadSchema, type LoadOptions, type TestSchema } from '../../support/schema';

/** Shared set-up of the REST read tests: a seeded blog database and a GET helper through `handle(ctx)`. */

export const ENDPOINT = 'http://localhost/api';
export const at = (p: string): string => `${ENDPOINT}${p}`;

export type Query = Record<string, string | string[]>;
/** A user id for the policy client, or null for an anonymous request. */
export type User = number | null;

export interface Api {
    s: TestSchema;
    get(path: string, query?: Query, user?: User): Promise<Response>;
    /** Any method (for verb errors). */
    call(method: string, path: string, query?: Query, user?: User): Promise<Response>;
    /** The body as a plain JSON value, for exact comparisons. */
    body(res: Response): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export function makeApi(s: TestSchema, options: Partial<RestApiHandlerOptions> = {}): Api {
    const handle = RestApiHandler({ endpoint: ENDPOINT, ...options });
    const call = (method: string, p: string, query: Query = {}, user: User = 1) =>
        handle({
            method,
            path: p,
            query,
            prisma: user === null ? s.enhance() : s.enhance({ id: user }),
            modelMeta: s.modelMeta,
            zodSchemas: s.zodSchemas,
            logger: null,
        });
    return {
        s,
        call,
        get: (p, query, user) => call('GET', p, query, user),
        body: (res) => JSON.parse(JSON.stringify(res.body)),
    };
}

export const day = (n: number): Date => new Date(Date.UTC(2024, 0, n));

/**
 * Users 1 Alice (ADMIN, profile), 2 Bob (profile), 3 Carol (no name, no profile); posts 1 and 3
 * published (Alice, Bob), 2 and 4 drafts (Alice, Bob), 5 published without author; comments 1, 2
 * on post 1, 3 on post 3, 4 on the draft post 2.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function seedBlog(prisma: any): Promise<void> {
    await prisma.user.create({ data: { id: 1, email: 'alice@example.com', name: 'Alice', role: 'ADMIN', profile: { create: { id: 1, gender: 'female' } } } });
    await prisma.user.create({ data: { id: 2, email: 'bob@example.com', name: 'Bob', profile: { create: { id: 2, gender: 'male' } } } });
    await prisma.user.create({ data: { id: 3, email: 'carol@example.com' } });
    const posts = [
        { id: 1, title: 'Hello World', published: true, viewCount: 10, authorId: 1 },
        { id: 2, title: 'Draft of Alice', published: false, viewCount: 0, authorId: 1 },
        { id: 3, title: 'Bob on Prisma', published: true, viewCount: 5, authorId: 2 },
        { id: 4, title: 'Bob draft', published: false, viewCount: 1, authorId: 2 },
        { id: 5, title: 'Orphan news', published: true, viewCount: 20, authorId: null },
    ];
    for (const p of posts) {
        await prisma.post.create({ data: { ...p, createdAt: day(p.id) } });
    }
    const comments = [
        { id: 1, content: 'Great post', postId: 1 },
        { id: 2, content: 'thanks', postId: 1 },
        { id: 3, content: 'Nice', postId: 3 },
        { id: 4, content: 'secret draft comment', postId: 2 },
    ];
    for (const c of comments) {
        await prisma.comment.create({ data: c });
    }
}

/** A fresh seeded blog database with its API. */
export async function blogApi(options: Partial<RestApiHandlerOptions> = {}, load: LoadOptions = {}): Promise<Api> {
    const s = await loadSchema(undefined, load);
    await seedBlog(s.prisma);
    return makeApi(s, options);
}

/** The blog's model metadata without any database (for unit tests of the pure pieces). */
export function blogModelMeta(): ModelMeta {
    const gen = generateSchema(BLOG_SCHEMA_TEXT, 'sqlite');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(path.join(gen.dir, 'zenstack', 'model-meta.js')).default as ModelMeta;
}

/** The REST schema of the blog for handler options (no database). */
export function blogRestSchema(options: Partial<RestApiHandlerOptions> = {}): RestSchema {
    return buildRestSchema(blogModelMeta(), normalizeOptions({ endpoint: ENDPOINT, ...options }));
}

/** Expected JSON:API pieces. */
export const JSONAPI = { version: '1.1' };
export function rels(type: string, id: string | number, names: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, data] of Object.entries(names)) {
        const entry: Record<string, unknown> = { links: { self: at(`/${type}/${id}/relationships/${name}`), related: at(`/${type}/${id}/${name}`) } };
        if (data !== undefined) entry.data = data;
        out[name] = entry;
    }
    return out;
}
