import { RestError } from '../../../src/api/rest/errors';
import { paginationLinks } from '../../../src/api/rest/document/links';
import { buildFilter, type FilterContext } from '../../../src/api/rest/query/filter';
import { parseInclude } from '../../../src/api/rest/query/include';
import { pageArgs, parsePage } from '../../../src/api/rest/query/page';
import { flattenQuery, parseParams, type Family } from '../../../src/api/rest/query/params';
import { projectionFor } from '../../../src/api/rest/query/select';
import { parseSort } from '../../../src/api/rest/query/sort';
import { parseFields } from '../../../src/api/rest/query/fields';
import { normalizeOptions } from '../../../src/api/rest/options';
import { blogRestSchema, ENDPOINT } from './support';

/** The pure translation steps (query string → Prisma arguments), without a database. */

const schema = blogRestSchema();
const config = normalizeOptions({ endpoint: ENDPOINT });
const post = schema.byTypeName.get('post')!;
const user = schema.byTypeName.get('user')!;
const ALL: ReadonlySet<Family> = new Set<Family>(['filter', 'sort', 'page', 'include', 'fields']);

function ctx(provider = 'sqlite'): FilterContext {
    return { provider, previewFeatures: [], maxFilters: 32, maxDepth: 4, idDivider: '_', enumValues: (name) => (name === 'Role' ? ['USER', 'ADMIN'] : undefined), anyNull: () => 'AnyNull', registry: schema.registry };
}

function where(query: Record<string, string | string[]>, model = post, provider = 'sqlite') {
    return buildFilter(model, parseParams(query, ALL, 'x').filters, ctx(provider));
}

function thrown(fn: () => unknown): RestError {
    try {
        fn();
    } catch (err) {
        if (err instanceof RestError) return err;
        throw err;
    }
    throw new Error('did not throw');
}

describe('query parameters → Prisma arguments', () => {
    it('flattens nested (qs-style) and repeated parameters in order', () => {
        expect(flattenQuery({ sort: 'a', filter: { author: { name: ['x', 'y'] } }, 'page[limit]': '2' } as never)).toEqual([
            ['sort', 'a'],
            ['filter[author][name]', 'x'],
            ['filter[author][name]', 'y'],
            ['page[limit]', '2'],
        ]);
    });

    it('splits filter selectors and operators', () => {
        expect(parseParams({ 'filter[author][name$contains]': 'x' }, ALL, 'x').filters).toEqual([
            { parameter: 'filter[author][name$contains]', selectors: ['author', 'name'], op: 'contains', value: 'x' },
        ]);
    });

    it.each<[Record<string, string>, unknown]>([
        [{ 'filter[title]': 'a' }, { title: { equals: 'a' } }],
        [{ 'filter[viewCount]': '1,2' }, { viewCount: { in: [1, 2] } }],
        [{ 'filter[published]': 'true,false' }, { OR: [{ published: { equals: true } }, { published: { equals: false } }] }],
        [{ 'filter[author]': '1' }, { author: { is: { id: 1 } } }],
        [{ 'filter[comments]': '1,2' }, { comments: { some: { id: { in: [1, 2] } } } }],
        [{ 'filter[author][name$contains]': 'x' }, { author: { is: { name: { contains: 'x' } } } }],
        [{ 'filter[comments][post][author][role]': 'ADMIN' }, { comments: { some: { post: { is: { author: { is: { role: { equals: 'ADMIN' } } } } } } } }],
        [{ 'filter[title$contains]': 'a,b' }, { OR: [{ title: { contains: 'a' } }, { title: { contains: 'b' } }] }],
        [{ 'filter[authorId$ne]': '1' }, { OR: [{ authorId: { not: 1 } }, { authorId: null }] }],
        [{ 'filter[viewCount$ne]': '1,2' }, { viewCount: { notIn: [1, 2] } }],
        [{ 'filter[authorId$isNull]': 'true' }, { authorId: { equals: null } }],
        [{ 'filter[authorId$isNull]': 'false' }, { authorId: { not: null } }],
        [{ 'filter[viewCount$between]': '1,5' }, { viewCount: { gte: 1, lte: 5 } }],
        [{ 'filter[author$isNull]': 'true' }, { author: { is: null } }],
        [{ 'filter[comments$isEmpty]': 'false' }, { comments: { some: {} } }],
        [{ 'filter[title$icontains]': 'A' }, { title: { contains: 'A' } }],
        // filters on different fields are ANDed at the top, where the access policy guards each of them
        [{ 'filter[title]': 'a', 'filter[viewCount$gt]': '3' }, { title: { equals: 'a' }, viewCount: { gt: 3 } }],
        [{ 'filter[title$startsWith]': 'a', 'filter[title$endsWith]': 'b' }, { title: { startsWith: 'a', endsWith: 'b' } }],
        [{ 'filter[author][name]': 'a', 'filter[author][email]': 'b' }, { author: { is: { name: { equals: 'a' }, email: { equals: 'b' } } } }],
        [{ 'filter[title]': 'a,b', 'filter[title$in]': 'c,d' }, { title: { in: ['a', 'b'] }, AND: [{ title: { in: ['c', 'd'] } }] }],
    ])('%j → %j', (query, expected) => {
        expect(where(query)).toEqual(expected);
    });

    it('types values (Date, enums) and uses insensitive mode where the database has it', () => {
        expect(where({ 'filter[createdAt$gte]': '2024-01-01' })).toEqual({ createdAt: { gte: new Date('2024-01-01T00:00:00.000Z') } });
        expect(where({ 'filter[title$icontains]': 'A' }, post, 'postgresql')).toEqual({ title: { contains: 'A', mode: 'insensitive' } });
        expect(thrown(() => where({ 'filter[role]': 'BOSS' }, user)).detail).toBe('invalid value "BOSS" for "role": expected one of USER, ADMIN');
    });

    it('merges filters through one to-one relationship at every level, and keeps a mode to its own operators', () => {
        const comment = schema.byTypeName.get('comment')!;
        expect(where({ 'filter[post][author][name]': 'a', 'filter[post][author][email]': 'b', 'filter[post][title]': 'c' }, comment)).toEqual({
            post: { is: { author: { is: { name: { equals: 'a' }, email: { equals: 'b' } } }, title: { equals: 'c' } } },
        });
        // the insensitive mode of $icontains would reach $startsWith too: the two stay apart
        expect(where({ 'filter[title$icontains]': 'a', 'filter[title$startsWith]': 'b' }, post, 'postgresql')).toEqual({
            title: { contains: 'a', mode: 'insensitive' },
            AND: [{ title: { startsWith: 'b' } }],
        });
    });

    it('rejects what it cannot translate with the parameter named', () => {
        const err = thrown(() => where({ 'filter[author][nope]': '1' }));
        expect([err.code, err.extra.source]).toEqual(['invalid-filter', { parameter: 'filter[author][nope]' }]);
        expect(thrown(() => where({ 'filter[title$has]': 'x' }, post, 'postgresql')).code).toBe('invalid-filter');
        expect(thrown(() => where({ 'filter[title$has]': 'x' })).code).toBe('unsupported-feature');
        expect(thrown(() => parseParams({ x: '1' }, ALL, 'x')).code).toBe('unknown-parameter');
        expect(thrown(() => parseParams({ include: 'a' }, new Set<Family>(['filter']), 'here')).detail).toBe('the "include" parameter is not supported on here');
    });

    it('sorts with an id tie-breaker, through to-one relationships', () => {
        expect(parseSort(post, undefined, 4)).toEqual([{ id: 'asc' }]);
        expect(parseSort(post, '-viewCount,author.name', 4)).toEqual([{ viewCount: 'desc' }, { author: { name: 'asc' } }, { id: 'asc' }]);
        expect(parseSort(post, '-id', 4)).toEqual([{ id: 'desc' }]);
        expect(thrown(() => parseSort(post, 'comments.id', 4)).code).toBe('invalid-sort');
    });

    it('pages with defaults and limits', () => {
        expect(parsePage({}, config)).toEqual({ offset: 0, limit: 100, explicitLimit: false });
        expect(pageArgs(parsePage({ offset: '20', limit: '10' }, config))).toEqual({ skip: 20, take: 10 });
        expect(pageArgs({ offset: 0, limit: Infinity, explicitLimit: false })).toEqual({});
        expect(thrown(() => parsePage({ limit: '1001' }, config)).extra.source).toEqual({ parameter: 'page[limit]' });
    });

    it('builds pagination links', () => {
        const page = { offset: 4, limit: 2, explicitLimit: false };
        expect(paginationLinks('S', 'B', 'sort=a', page, 7)).toEqual({
            self: 'S',
            first: 'B?sort=a&page[limit]=2',
            last: 'B?sort=a&page[offset]=6',
            prev: 'B?sort=a&page[offset]=2&page[limit]=2',
            next: 'B?sort=a&page[offset]=6&page[limit]=2',
        });
        expect(paginationLinks('S', 'B', '', { offset: 0, limit: 5, explicitLimit: true }, 0)).toEqual({
            self: 'S',
            first: 'B?page[limit]=5',
            last: 'B?page[offset]=0&page[limit]=5',
            prev: null,
            next: null,
        });
    });

    it('parses include trees and sparse fieldsets', () => {
        const tree = parseInclude(post, 'author.posts,comments,author.profile', 4, 101).tree;
        expect([...tree.keys()]).toEqual(['author', 'comments']);
        expect([...tree.get('author')!.keys()]).toEqual(['posts', 'profile']);
        const fields = parseFields(schema, [
            ['post', 'title, author'],
            ['post', 'viewCount'],
        ]);
        expect([...fields!.get('post')!]).toEqual(['title', 'author', 'viewCount']);
    });

    it('counts the records an include tree may hold more than once per primary record, each relationship once', () => {
        // author 1, author.posts 101, author.profile 1 (author named twice: counted once); comments have one post each
        expect(parseInclude(post, 'author.posts,comments,author.profile,author', 4, 101).reach).toBe(103);
        expect(parseInclude(post, 'comments', 4, 101).reach).toBe(0);
        expect(parseInclude(user, 'posts.comments,profile', 4, 101).reach).toBe(0);
        // a cycle multiplies: 1 + 101 + 101 × 1 + 101 × 101
        expect(parseInclude(post, 'author.posts.author.posts', 4, 101).reach).toBe(10_404);
        // the first relationship's cap given apart (a relationship endpoint's page): comments.post is shared
        expect(parseInclude(post, 'comments.post.comments', 4, 101, 10).reach).toBe(10 + 1010);
        expect(parseInclude(post, '', 4, 101).reach).toBe(0);
    });
});

/** The `select` of a projection (every blog model is read with one: none is a delegate base model). */
function selectFor(...args: Parameters<typeof projectionFor>): Record<string, unknown> {
    const projection = projectionFor(...args);
    if (!('select' in projection)) throw new Error('expected a select');
    return projection.select;
}

describe('select builder', () => {
    it('selects every attribute and only what to-one linkage needs (no to-many, no join for owner sides)', () => {
        expect(selectFor(post, undefined, undefined, config)).toEqual({ id: true, createdAt: true, title: true, published: true, viewCount: true, authorId: true });
        expect(selectFor(user, undefined, undefined, config)).toEqual({ id: true, email: true, name: true, role: true, profile: { select: { id: true } } });
        expect(selectFor(post, undefined, undefined, config)).toBe(selectFor(post, undefined, undefined, config));
    });

    it('selects only the sparse fieldset (plus ids and the foreign keys of listed relationships)', () => {
        const fields = parseFields(schema, [['post', 'title,author']]);
        expect(selectFor(post, undefined, fields, config)).toEqual({ id: true, title: true, authorId: true });
        expect(selectFor(post, undefined, parseFields(schema, [['post', 'title']]), config)).toEqual({ id: true, title: true });
    });

    it('nests the selects of included relationships, capping to-many at the page size (one more read, to tell that there are more)', () => {
        const tree = parseInclude(post, 'comments,author', 4, 101).tree;
        const fields = parseFields(schema, [
            ['comment', 'content'],
            ['user', 'email'],
        ]);
        expect(selectFor(post, tree, fields, config)).toEqual({
            id: true,
            createdAt: true,
            title: true,
            published: true,
            viewCount: true,
            authorId: true,
            author: { select: { id: true, email: true } },
            comments: { select: { id: true, content: true }, orderBy: [{ id: 'asc' }], take: 101 },
        });
    });
});
