import { messageOfThrown, renderAdapterError, statusOfThrown } from '../../src/adapters/shared/errors';
import { resolveAdapter } from '../../src/adapters/shared/options';
import {
    fromParsedBody,
    normalizePrefix,
    parseJsonText,
    parseQuery,
    pathFromRestParam,
    splitUrl,
    stripPatternSegments,
    stripPrefix,
} from '../../src/adapters/shared/request';
import { toWire } from '../../src/adapters/shared/pipeline';

describe('adapter request translation', () => {
    it('parseQuery: repeated keys become arrays in order; values are decoded; no prototype pollution', () => {
        expect(parseQuery('?a=1&b=2&a=3&a=4')).toEqual({ a: ['1', '3', '4'], b: '2' });
        expect(parseQuery('q=%7B%22x%22%3A1%7D&sp=a+b')).toEqual({ q: '{"x":1}', sp: 'a b' });
        const polluted = parseQuery('__proto__=x&__proto__=y&constructor=z');
        expect(Object.getPrototypeOf(polluted)).toBe(Object.prototype);
        expect(Object.keys(polluted)).toEqual(['__proto__', 'constructor']);
        expect(polluted['__proto__' as 'x']).toEqual(['x', 'y']);
        expect(({} as Record<string, unknown>).x).toBeUndefined();
        expect(parseQuery('')).toEqual({});
    });

    it('splitUrl: request targets and absolute URLs', () => {
        expect(splitUrl('/a/b?x=1#h')).toEqual({ pathname: '/a/b', search: '?x=1' });
        expect(splitUrl('https://h:3000/a%2Fb?x')).toEqual({ pathname: '/a%2Fb', search: '?x' });
        expect(splitUrl('https://h')).toEqual({ pathname: '/', search: '' });
        expect(splitUrl('?x=1')).toEqual({ pathname: '/', search: '?x=1' });
    });

    it('prefixes: normalized, matched on segment boundaries', () => {
        expect(normalizePrefix('api/model/')).toBe('/api/model');
        expect(normalizePrefix('/')).toBe('');
        expect(normalizePrefix(undefined)).toBe('');
        expect(stripPrefix('/api/model/post/1', '/api/model')).toBe('/post/1');
        expect(stripPrefix('/api/model', '/api/model')).toBe('/');
        expect(stripPrefix('/api/modelx/post', '/api/model')).toBeUndefined();
        expect(stripPrefix('/post', '')).toBe('/post');
        expect(stripPatternSegments('/v1/acme/model/post/1', '/v1/:tenant/model/*')).toBe('/post/1');
        expect(stripPatternSegments('/api/post', '/api/*')).toBe('/post');
    });

    it('pathFromRestParam: recovers the raw tail of decoded, partly decoded and array rest params, or says it cannot', () => {
        const pathname = '/api/rest/allTypes/a%2Fb%20c';
        expect(pathFromRestParam(pathname, ['allTypes', 'a/b c'])).toBe('/allTypes/a%2Fb%20c');
        expect(pathFromRestParam(pathname, 'allTypes/a/b c')).toBe('/allTypes/a%2Fb%20c');
        expect(pathFromRestParam(pathname, 'allTypes/a%2Fb c')).toBe('/allTypes/a%2Fb%20c');
        expect(pathFromRestParam(pathname, 'allTypes/a%2Fb%20c')).toBe('/allTypes/a%2Fb%20c');
        expect(pathFromRestParam('/x', undefined)).toBe('/');
        expect(pathFromRestParam('/x', [])).toBe('/');
        // found in the URL as routers normalize it (trailing slash trimmed, runs of slashes collapsed)
        expect(pathFromRestParam('/api/rest/allTypes/a%2Fb/', 'allTypes/a/b')).toBe('/allTypes/a%2Fb');
        expect(pathFromRestParam('/api/rest//allTypes//a%2Fb', 'allTypes/a/b')).toBe('/allTypes/a%2Fb');
        // not found in the URL (a rewrite): an array's segments are re-encoded one by one; a string's slashes could
        // be encoded ones, or the router stopped early (`a;b` read as `a`): undefined (the adapters answer 400)
        expect(pathFromRestParam('/rewritten', ['post', 'a/b'])).toBe('/post/a%2Fb');
        expect(pathFromRestParam('/rewritten', 'post/a/b')).toBeUndefined();
        expect(pathFromRestParam('/api/rest/allTypes/a;b', 'allTypes/a')).toBeUndefined();
    });

    it('JSON bodies: blank is none, malformed is 400, pre-parsed text and bytes are parsed, objects kept', () => {
        expect(parseJsonText('  ')).toEqual({ ok: true, value: undefined });
        expect(parseJsonText('{"a":[1]}')).toEqual({ ok: true, value: { a: [1] } });
        expect(parseJsonText('{"a":')).toMatchObject({ ok: false, status: 400 });
        expect(fromParsedBody('{"a":1}', 100)).toEqual({ ok: true, value: { a: 1 } });
        expect(fromParsedBody(Buffer.from('[1]'), 100)).toEqual({ ok: true, value: [1] });
        expect(fromParsedBody({ a: 1 }, 1)).toEqual({ ok: true, value: { a: 1 } });
        expect(fromParsedBody('"€€€€"', 8)).toMatchObject({ ok: false, status: 413 });
        expect(fromParsedBody('"€€"', 8)).toEqual({ ok: true, value: '€€' });
        // under a JSON content type, text is a string literal a JSON parser has parsed already: kept, never parsed again
        expect(fromParsedBody('{"a":1}', 100, 'application/json; charset=utf-8')).toEqual({ ok: true, value: '{"a":1}' });
        expect(fromParsedBody('{"a":1}', 100, 'text/plain')).toEqual({ ok: true, value: { a: 1 } });
    });
});

describe('adapter errors', () => {
    it('statusOfThrown: status, statusCode or getStatus(), 4xx/5xx only', () => {
        expect(statusOfThrown(Object.assign(new Error('x'), { status: 401 }))).toBe(401);
        expect(statusOfThrown({ statusCode: 403 })).toBe(403);
        expect(statusOfThrown({ getStatus: () => 429 })).toBe(429);
        expect(statusOfThrown({ status: 302 })).toBeUndefined();
        expect(statusOfThrown({ status: '401' })).toBeUndefined();
        expect(statusOfThrown(new Error('plain'))).toBeUndefined();
        expect(statusOfThrown('text')).toBeUndefined();
    });

    it('messageOfThrown: 4xx messages are shown, 5xx hidden, unless expose says otherwise', () => {
        expect(messageOfThrown(new Error('token expired'), 401)).toBe('token expired');
        expect(messageOfThrown({ body: { message: 'sveltekit style' } }, 403)).toBe('sveltekit style');
        expect(messageOfThrown(new Error('db down at 10.0.0.1'), 503)).not.toContain('10.0.0.1');
        expect(messageOfThrown(Object.assign(new Error('maintenance'), { expose: true }), 503)).toBe('maintenance');
        expect(messageOfThrown(Object.assign(new Error('internal detail'), { expose: false }), 401)).toBe('unauthorized');
    });

    it("renderAdapterError uses the handler's renderError, else a neutral body", () => {
        const plain = async () => ({ status: 200, body: null });
        expect(renderAdapterError(plain, 400, 'bad')).toEqual({ status: 400, body: { error: { message: 'bad' } } });
        const custom = Object.assign(plain, { renderError: (status: number, message: string) => ({ status, body: { errors: [{ detail: message }] } }) });
        expect(renderAdapterError(custom, 413, 'big')).toEqual({ status: 413, body: { errors: [{ detail: 'big' }] } });
    });

    it('toWire: lower-case headers, JSON content type by default, none for 204', () => {
        const adapter = resolveAdapter({ handler: async () => ({ status: 200, body: null }) }, 'test');
        expect(toWire(adapter, { status: 200, body: { a: 1 }, headers: { 'Content-Type': 'application/vnd.api+json', Location: '/x' } })).toEqual({
            status: 200,
            headers: { 'content-type': 'application/vnd.api+json', location: '/x' },
            body: '{"a":1}',
            value: { a: 1 },
        });
        expect(toWire(adapter, { status: 201, body: null }).headers['content-type']).toBe('application/json; charset=utf-8');
        expect(toWire(adapter, { status: 204, body: 'x', headers: { 'content-type': 'x' } })).toEqual({ status: 204, headers: {}, body: undefined });
    });
});
