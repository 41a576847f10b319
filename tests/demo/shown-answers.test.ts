import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../support/generate';
import { curlExamples } from './curl';
import { differences, jsonBlockAfter, parseShown } from './shown-json';

/** Where a document shows an answer (`curl.ts`), how it is read and compared (`shown-json.ts`); `doc-examples.test.ts` applies them to every example. */

const check = (shown: string, actual: unknown, perRun = {}) => differences(parseShown(shown), actual, perRun);

describe('a shown answer', () => {
    it('without an ellipsis must be the answer exactly, member order aside', () => {
        expect(check('{"a":1,"b":[true,null]}', { b: [true, null], a: 1 })).toEqual([]);
        expect(check('{"a":1}', { a: 1, b: 2 })).toEqual(['b: answered, not shown (and no "…" there)']);
        expect(check('{"a":1,"b":2}', { a: 1 })).toEqual(['b: shown, not answered']);
        expect(check('{"a":{"b":"x"}}', { a: { b: 'y' } })).toEqual(['a.b: shown "x", answered "y"']);
        expect(check('[1,2]', [1, 2, 3])).toEqual(['(the body): shown 2 elements, answered 3']);
        expect(check('{"a":1}', { a: '1' })).toEqual(['a: shown 1, answered "1"']);
        expect(check('{"d":"post \\"2\\" not found"}', { d: 'post "2" not found' })).toEqual([]);
    });

    it('abbreviates with … or ... in the four documented ways', () => {
        // members
        expect(check('{"a":1,…}', { a: 1, b: 2 })).toEqual([]);
        expect(check('{ "a": 1, ... }', { a: 2, b: 2 })).toEqual(['a: shown 1, answered 2']);
        expect(check('{"links":{…}}', { links: { self: 'x' } })).toEqual([]);
        expect(check('{"links":{…}}', { links: 'x' })).toEqual(['links: shown an object, answered "x"']);
        // a value
        expect(check('{"self":…,"next":null}', { self: 'http://x', next: null })).toEqual([]);
        expect(check('{"self":…}', {})).toEqual(['self: shown, not answered']);
        // an array's last elements
        expect(check('[{"id":1},…]', [{ id: 1 }, { id: 2 }])).toEqual([]);
        expect(check('[{"id":1},…]', [])).toEqual(['(the body): shown 1 or more elements, answered 0']);
        expect(() => parseShown('[…,1]')).toThrow(/last elements/);
        // part of a string
        expect(check('{"first":"…&page[limit]=1"}', { first: 'http://h/post?a=b&page[limit]=1' })).toEqual([]);
        expect(check('{"first":"…&page[limit]=1"}', { first: 'http://h/post?page[limit]=10' })).toEqual([
            'first: shown "…&page[limit]=1", answered "http://h/post?page[limit]=10"',
        ]);
        expect(check('{"self":".../comment/1/post"}', { self: 'http://h/api/comment/1/post' })).toEqual([]);
        expect(check('{"createdAt":"…"}', { createdAt: 5 })).toEqual(['createdAt: shown "…", answered 5']);
    });

    it('may stop right after an ellipsis, and then shows some members of every container still open', () => {
        const shown = '{"data":{"type":"user","attributes":{"name":"A"}, ...';
        expect(check(shown, { data: { type: 'user', id: 1, attributes: { name: 'A' } }, jsonapi: {} })).toEqual([]);
        expect(check(shown, { data: { type: 'user', attributes: { name: 'B' } } })).toEqual(['data.attributes.name: shown "A", answered "B"']);
        expect(() => parseShown('{"data":{"type":"user"')).toThrow(/shown JSON/);
    });

    it('may be members of an object (a fragment such as `"links": {…}`)', () => {
        expect(check('"links": { "next": null }', { links: { next: null }, data: [] })).toEqual([]);
        expect(check('"links": { "next": null }', { links: { next: 'x' } })).toEqual(['links.next: shown null, answered "x"']);
    });

    it('takes any value of the form for a value that changes per run, and only there', () => {
        const perRun = { createdAt: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/ };
        const shown = '{"createdAt":"2026-11-22T03:47:38.184Z","dateTime":"2025-06-30T12:00:00.000Z"}';
        expect(check(shown, { createdAt: '2027-01-01T00:00:00.000Z', dateTime: '2025-06-30T12:00:00.000Z' }, perRun)).toEqual([]);
        expect(check(shown, { createdAt: 'yesterday', dateTime: '2025-06-30T12:00:00.001Z' }, perRun)).toEqual([
            'createdAt: shown "2026-11-22T03:47:38.184Z", answered "yesterday"',
            'dateTime: shown "2025-06-30T12:00:00.000Z", answered "2025-06-30T12:00:00.001Z"',
        ]);
    });
});

describe('where a document shows an answer', () => {
    const fence = '```';
    it('in # lines right after the command (after a status and headers), or in a JSON block after a one-command block', () => {
        const markdown = [
            `${fence}sh`,
            "curl -i -X DELETE http://localhost:3000/api/rest/post/1 -H 'x-user-id: 2'",
            '# HTTP/1.1 403 Forbidden',
            '# x-thing: a',
            '# {"errors":[{"status":403,',
            '#  "code":"forbidden"}]}',
            '# prose after it',
            'curl http://localhost:3000/api/rest/post/2',
            '# 404 {"errors":[…]}',
            fence,
            '',
            `${fence}sh`,
            'curl http://localhost:3000/api/rest/post/3',
            fence,
            '',
            `${fence}json`,
            '{ "data": { "id": 3, … } }',
            fence,
        ].join('\n');
        const [first, second, third] = curlExamples(markdown);
        expect([first.shows, first.shownHeaders, first.answer]).toEqual([403, { 'x-thing': 'a' }, '{"errors":[{"status":403,\n "code":"forbidden"}]}']);
        expect([second.shows, second.answer]).toEqual([404, '{"errors":[…]}']);
        expect([third.shows, third.answer]).toEqual(['2xx', '{ "data": { "id": 3, … } }\n']);
    });

    it('and nowhere else: JSON further from its command is refused, not left unchecked', () => {
        const markdown = `${fence}sh\ncurl http://localhost:3000/api/rest/post/3\n# the post:\n# {"data":{}}\n${fence}\n`;
        expect(() => curlExamples(markdown)).toThrow(/apart from its command/);
    });
});

describe('the shown answers of the documents', () => {
    const read = (document: string) => fs.readFileSync(path.join(PROJECT_ROOT, document), 'utf8');

    it('are found after the commands, inline or in a JSON block, and all read', () => {
        const shown = ['README.md', 'docs/rpc.md', 'docs/rest-read.md', 'docs/rest-write.md'].flatMap((d) => curlExamples(read(d)).filter((e) => e.answer !== undefined));
        expect(shown.length).toBeGreaterThanOrEqual(25);
        for (const example of shown) expect(() => parseShown(example.answer!)).not.toThrow();
        const document = curlExamples(read('docs/rest-read.md')).find((e) => e.path === '/api/rest/post/1');
        expect(document?.answer).toMatch(/^\{\n {2}"data": \{/);
        const created = curlExamples(read('docs/rest-write.md'))[0];
        expect([created.shows, created.shownHeaders]).toEqual([201, { location: 'http://localhost:3000/api/rest/post/7' }]);
    });

    it('the database-down bodies, in the README and docs/reliability.md (checked in tests/rpc/errors.test.ts)', () => {
        for (const document of ['README.md', 'docs/reliability.md']) {
            expect(parseShown(jsonBlockAfter(read(document), 'RPC:'))).toMatchObject({ kind: 'object', open: false });
            expect(parseShown(jsonBlockAfter(read(document), 'REST (JSON:API):'))).toMatchObject({ kind: 'object', open: false });
        }
    });
});
