import Decimal from 'decimal.js';
import { DocumentBuilder } from '../../../src/api/rest/document/builder';
import { buildDocument } from '../../../src/api/rest/document/documents';
import { resourceLink } from '../../../src/api/rest/document/links';
import { parseFields } from '../../../src/api/rest/query/fields';
import { parseInclude } from '../../../src/api/rest/query/include';
import { normalizeOptions } from '../../../src/api/rest/options';
import { buildRestSchema } from '../../../src/api/rest/schema';
import { blogModelMeta, blogRestSchema, ENDPOINT } from './support';

/** Records → JSON:API documents, without a database. */

const schema = blogRestSchema();
const allTypes = schema.byTypeName.get('allTypes')!;
const user = schema.byTypeName.get('user')!;
const post = schema.byTypeName.get('post')!;
const link = (p: string) => `${ENDPOINT}${p}`;

describe('document builder', () => {
    it('encodes Bytes from Buffer and Uint8Array alike, Decimal, BigInt, DateTime, non-finite floats, and tags each path', () => {
        const builder = new DocumentBuilder('_');
        const base = { string: 's', int: 1, boolean: false, json: { d: '2024' }, role: 'USER', ownerId: null };
        const a = builder.resource(
            allTypes,
            { id: 'a', ...base, float: NaN, dateTime: new Date('2024-01-01T00:00:00Z'), bigInt: 5n, decimal: new Decimal('1.10'), bytes: Buffer.from('hi') },
            0,
        );
        const b = builder.resource(
            allTypes,
            { id: 'b', ...base, float: 1, dateTime: new Date('2024-01-02T00:00:00Z'), bigInt: -1n, decimal: new Decimal(2), bytes: new Uint8Array([104, 105]) },
            1,
        );
        const doc = buildDocument(builder, [a, b], { self: 'x' }, { included: false, total: 2 });
        expect(a.attributes).toEqual({ ...base, float: 'NaN', dateTime: '2024-01-01T00:00:00.000Z', bigInt: '5', decimal: '1.1', bytes: 'aGk=' });
        expect(b.attributes).toEqual({ ...base, float: 1, dateTime: '2024-01-02T00:00:00.000Z', bigInt: '-1', decimal: '2', bytes: 'aGk=' });
        expect(doc.meta).toEqual({
            total: 2,
            serialization: {
                values: {
                    'data.0.attributes.float': ['number'],
                    'data.0.attributes.dateTime': ['Date'],
                    'data.0.attributes.bigInt': ['bigint'],
                    'data.0.attributes.decimal': [['custom', 'Decimal']],
                    'data.0.attributes.bytes': [['custom', 'Bytes']],
                    'data.1.attributes.dateTime': ['Date'],
                    'data.1.attributes.bigInt': ['bigint'],
                    'data.1.attributes.decimal': [['custom', 'Decimal']],
                    'data.1.attributes.bytes': [['custom', 'Bytes']],
                },
            },
        });
    });

    it('sends no meta when nothing is tagged and no total is given', () => {
        const builder = new DocumentBuilder('_');
        const data = builder.resource(user, { id: 1, email: 'e', name: null, role: 'USER', profile: null }, undefined);
        expect(buildDocument(builder, data, { self: 'x' }, { included: false })).toEqual({
            data: {
                type: 'user',
                id: 1,
                attributes: { email: 'e', name: null, role: 'USER' },
                relationships: {
                    posts: { links: { self: link('/user/1/relationships/posts'), related: link('/user/1/posts') } },
                    profile: { links: { self: link('/user/1/relationships/profile'), related: link('/user/1/profile') }, data: null },
                    allTypes: { links: { self: link('/user/1/relationships/allTypes'), related: link('/user/1/allTypes') } },
                },
                links: { self: link('/user/1') },
            },
            links: { self: 'x' },
            jsonapi: { version: '1.1' },
        });
    });

    it('deduplicates included resources and never repeats primary data', () => {
        const builder = new DocumentBuilder('_');
        const tree = parseInclude(post, 'author.posts', 4, 101).tree;
        const alice = { id: 1, email: 'a', name: 'A', role: 'USER', profile: null };
        const p1 = { id: 1, title: 't1', createdAt: new Date(0), published: true, viewCount: 0, authorId: 1 };
        const p2 = { id: 2, title: 't2', createdAt: new Date(0), published: true, viewCount: 0, authorId: 1 };
        const p3 = { id: 3, title: 't3', createdAt: new Date(0), published: true, viewCount: 0, authorId: 1 };
        const data = [
            builder.resource(post, { ...p1, author: { ...alice, posts: [p1, p2, p3] } }, 0, tree),
            builder.resource(post, { ...p2, author: { ...alice, posts: [p1, p2, p3] } }, 1, tree),
        ];
        const doc = buildDocument(builder, data, { self: 'x' }, { included: true });
        expect(doc.included!.map((r) => `${r.type}:${r.id}`)).toEqual(['user:1', 'post:3']);
        expect(doc.included![0].relationships.posts.data).toEqual([1, 2, 3].map((id) => ({ type: 'post', id })));
        expect(doc.meta).toEqual({
            serialization: {
                values: {
                    'data.0.attributes.createdAt': ['Date'],
                    'data.1.attributes.createdAt': ['Date'],
                    'included.1.attributes.createdAt': ['Date'],
                },
            },
        });
    });

    it('applies sparse fieldsets to attributes and relationships', () => {
        const fields = parseFields(schema, [['post', 'title,comments']]);
        const builder = new DocumentBuilder('_', fields);
        const res = builder.resource(post, { id: 7, title: 't', createdAt: new Date(0), authorId: 1 }, undefined);
        expect(res.attributes).toEqual({ title: 't' });
        expect(Object.keys(res.relationships)).toEqual(['comments']);
        expect(buildDocument(builder, res, { self: 'x' }, { included: false }).meta).toBeUndefined();
    });

    it('writes integer ids into links as they are and percent-encodes every other id', () => {
        expect(resourceLink(post, 42)).toBe(link('/post/42'));
        expect(resourceLink(post, -7)).toBe(link('/post/-7'));
        // numbers whose text is not plain digits, and strings, are encoded
        expect(resourceLink(post, 1e21)).toBe(link('/post/1e%2B21'));
        expect(resourceLink(allTypes, 'a/b c?')).toBe(link('/allTypes/a%2Fb%20c%3F'));
        expect(resourceLink(allTypes, '42')).toBe(link('/allTypes/42'));
        const builder = new DocumentBuilder('_');
        const data = builder.resource(allTypes, { id: 'x/y', string: '', int: 0 }, undefined);
        expect(data.links.self).toBe(link('/allTypes/x%2Fy'));
        expect(data.relationships.owner.links).toEqual({ self: link('/allTypes/x%2Fy/relationships/owner'), related: link('/allTypes/x%2Fy/owner') });
    });
});

describe('REST schema', () => {
    it('points every relationship at its target model once, when the schema is built', () => {
        const commentPost = schema.byTypeName.get('comment')!.relationships.get('post')!;
        expect(commentPost.target).toBe(post);
        expect(post.relationships.get('author')!.target).toBe(user);
    });

    it('builds from metadata whose relation names a missing model, failing only where that relationship is used', () => {
        const meta = blogModelMeta();
        const damaged = { ...meta, models: { ...meta.models } };
        delete (damaged.models as Record<string, unknown>).profile;
        const built = buildRestSchema(damaged, normalizeOptions({ endpoint: ENDPOINT }));
        const profile = built.byTypeName.get('user')!.relationships.get('profile')!;
        expect(() => profile.target).toThrow('relation target model not found: Profile');
        expect(built.byTypeName.get('post')!.relationships.get('author')!.target).toBe(built.byTypeName.get('user'));
    });
});
