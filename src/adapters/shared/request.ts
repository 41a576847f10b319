/**
 * Pure request translation shared by every adapter: URL → path and query, raw text → JSON body.
 * Paths stay percent-encoded (handlers decode each segment); queries are flat, repeated keys become arrays.
 */

export type Query = Record<string, string | string[]>;

function assign(query: Query, key: string, value: string | string[]): void {
    if (key === '__proto__') {
        Object.defineProperty(query, key, { value, enumerable: true, writable: true, configurable: true });
    } else {
        query[key] = value;
    }
}

/** Parses a query string (with or without `?`); a key given more than once yields an array, in order. */
export function parseQuery(search: string): Query {
    const query: Query = {};
    const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
    for (const [key, value] of params) {
        const existing = Object.prototype.hasOwnProperty.call(query, key) ? query[key] : undefined;
        if (existing === undefined) {
            assign(query, key, value);
        } else if (Array.isArray(existing)) {
            existing.push(value);
        } else {
            assign(query, key, [existing, value]);
        }
    }
    return query;
}

/** Splits a request target (`/a/b?x=1`, or an absolute URL) into its pathname and search parts. */
export function splitUrl(url: string): { pathname: string; search: string } {
    let target = url;
    if (!target.startsWith('/')) {
        const scheme = target.indexOf('://');
        if (scheme >= 0) {
            const slash = target.indexOf('/', scheme + 3);
            target = slash >= 0 ? target.slice(slash) : '/';
        }
    }
    const hash = target.indexOf('#');
    if (hash >= 0) {
        target = target.slice(0, hash);
    }
    const q = target.indexOf('?');
    return q >= 0 ? { pathname: target.slice(0, q) || '/', search: target.slice(q) } : { pathname: target || '/', search: '' };
}

/** `api/model/` → `/api/model`; `` and `/` → `` (mounted at the root). */
export function normalizePrefix(prefix: string | undefined): string {
    if (!prefix) {
        return '';
    }
    let p = prefix.startsWith('/') ? prefix : `/${prefix}`;
    while (p.endsWith('/')) {
        p = p.slice(0, -1);
    }
    return p;
}

/**
 * The part of `pathname` after the mount point `prefix` (normalized), starting with `/`; `undefined`
 * when the path is not under the prefix (`/apix` is not under `/api`).
 */
export function stripPrefix(pathname: string, prefix: string): string | undefined {
    if (!prefix) {
        return pathname.startsWith('/') ? pathname : `/${pathname}`;
    }
    if (pathname === prefix) {
        return '/';
    }
    if (pathname.startsWith(prefix) && pathname.charAt(prefix.length) === '/') {
        return pathname.slice(prefix.length);
    }
    return undefined;
}

/**
 * Drops as many leading segments from `pathname` as the mount pattern has (`/api/:tenant/*` → 2), for
 * frameworks that report the matched route pattern rather than the literal prefix.
 */
export function stripPatternSegments(pathname: string, pattern: string): string {
    const count = pattern.split('/').filter((s) => s.length > 0 && s !== '*' && !s.startsWith('*')).length;
    const segments = pathname.split('/').slice(1);
    return `/${segments.slice(count).join('/')}`;
}

/** `decodeURIComponent`, or the text as it is when it is not valid percent-encoding. */
export function safeDecodeSegment(segment: string): string {
    try {
        return decodeURIComponent(segment);
    } catch {
        return segment;
    }
}

/**
 * What the client is told when the path a framework routed on cannot be found in the request URL: serving the
 * framework's decoded view of it instead could name another resource (`a%2Fb` read as two segments).
 */
export const UNMATCHED_PATH_MESSAGE = 'the request URL does not match the path the framework routed';

/** `path` without its trailing slashes, by a scan: `/\/+$/` backtracks quadratically over a long run of slashes inside a path. */
function withoutTrailingSlashes(path: string): string {
    let end = path.length;
    while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
    return path.slice(0, end);
}

/**
 * The forms routers match a path in besides the one sent: without a trailing slash, with runs of slashes
 * collapsed (Fastify's `ignoreTrailingSlash` and `ignoreDuplicateSlashes`), or both.
 */
function routedForms(pathname: string): string[] {
    const trimmed = pathname.length > 1 ? withoutTrailingSlashes(pathname) : pathname;
    const collapsed = pathname.replace(/\/{2,}/g, '/');
    const both = collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
    return [...new Set([pathname, trimmed, collapsed, both])];
}

/** `decodeURIComponent`, or `undefined` when the text is not valid percent-encoding. */
function decodedOrUndefined(segment: string): string | undefined {
    try {
        return decodeURIComponent(segment);
    } catch {
        return undefined;
    }
}

/**
 * The shortest tail of `form`'s segments that is `wanted`, or decodes to `wanted` or to `wantedDecoded`. A tail decodes
 * as its segments do, one by one (an escape never spans a `/`), and is the text itself when one of them is not valid
 * percent-encoding (`safeDecodeSegment`). The lengths of the tail and of its decoding grow with every segment added, so
 * each length sought is met once at most: only those tails are built and compared, and the walk stays linear in the
 * path (decoding every tail of fitting length took quadratic time: most of a second for a 16 KiB URL of `%61/` segments).
 */
function matchingTail(form: string, wanted: string, wantedDecoded: string): string | undefined {
    const segments = form.split('/').slice(1);
    let rawLength = -1;
    let decodedLength = -1;
    let decodable = true;
    for (let i = segments.length - 1; i >= 0; i--) {
        rawLength += segments[i].length + 1;
        const decoded = decodable ? decodedOrUndefined(segments[i]) : undefined;
        if (decoded === undefined) decodable = false;
        else decodedLength += decoded.length + 1;
        // decoding shortens a tail, by 9 to 1 at most (`%E2%82%AC` is `€`): only tails of a fitting length can match
        if (rawLength < wantedDecoded.length) continue;
        if (rawLength > 9 * wanted.length) break;
        const tailDecodedLength = decodable ? decodedLength : rawLength;
        if (rawLength !== wanted.length && tailDecodedLength !== wanted.length && tailDecodedLength !== wantedDecoded.length) continue;
        const raw = segments.slice(i).join('/');
        const tailDecoded = safeDecodeSegment(raw);
        if (raw === wanted || tailDecoded === wanted || tailDecoded === wantedDecoded) {
            return raw;
        }
    }
    return undefined;
}

/**
 * Recovers the raw (percent-encoded) tail of `pathname` that a framework reports as a rest parameter,
 * decoded (`params.path = 'post/a b'`) or partly decoded (`post/a%2Fb c`), so that the handler sees exactly
 * what the client sent (an encoded `/` stays inside its segment); the tail is looked for in the path as sent,
 * then as routers normalize it (`routedForms`). When it is not there (the framework routed a rewritten path), an
 * array parameter (one decoded segment each: Next.js) is re-encoded segment by segment; a string one cannot be,
 * since an encoded `/` in it cannot be told from a separator: `undefined`, for the adapter to answer 400
 * (`UNMATCHED_PATH_MESSAGE`).
 */
export function pathFromRestParam(pathname: string, rest: string | string[] | undefined): string | undefined {
    const parts = Array.isArray(rest) ? rest : rest ? rest.split('/') : [];
    const wanted = parts.join('/').replace(/^\/+/, '');
    if (wanted.length === 0) {
        return '/';
    }
    const wantedDecoded = safeDecodeSegment(wanted);
    for (const form of routedForms(pathname)) {
        const raw = matchingTail(form, wanted, wantedDecoded);
        if (raw !== undefined) {
            return `/${raw}`;
        }
    }
    return Array.isArray(rest) ? `/${parts.map((p) => encodeURIComponent(p)).join('/')}` : undefined;
}

/**
 * A path in the form most of 2.x's adapters (Next.js, Fastify, Nuxt, TanStack Start, Hono) hand it to the handler:
 * without the leading slash (`post/create`), so that a custom handler written for them sees the same `ctx.path`.
 * The built-in handlers take either form.
 */
export function withoutLeadingSlash(path: string): string {
    return path.startsWith('/') ? path.slice(1) : path;
}

/** `pathFromRestParam` in 2.x's form (`withoutLeadingSlash`). */
export function restParamPath(pathname: string, rest: string | string[] | undefined): string | undefined {
    const path = pathFromRestParam(pathname, rest);
    return path === undefined ? undefined : withoutLeadingSlash(path);
}

/** What the adapter made of the request body. */
export type BodyResult = { ok: true; value: unknown } | { ok: false; status: 400 | 413 | 415; message: string };

export const EMPTY_BODY: BodyResult = Object.freeze({ ok: true, value: undefined }) as BodyResult;

/** A body that broke off before its end (the client went away while sending it): nothing of it is used. */
export const BODY_NOT_READ: BodyResult = Object.freeze({ ok: false, status: 400, message: 'the request body could not be read' }) as BodyResult;

/**
 * V8 quotes the text it failed to parse (`Unexpected token 'h', "{"password":hunter2}" is not valid JSON`, a window of a longer text between `...`): the
 * answer keeps the reason and leaves out the client's text, which may hold a password.
 */
const JSON_TEXT_ECHO = /, .* is not valid JSON$/s;

/** Parses a JSON body; empty or blank text means no body. */
export function parseJsonText(text: string): BodyResult {
    if (text.trim().length === 0) {
        return EMPTY_BODY;
    }
    try {
        return { ok: true, value: JSON.parse(text) };
    } catch (err) {
        const detail = err instanceof Error ? `: ${err.message.replace(JSON_TEXT_ECHO, '')}` : '';
        return { ok: false, status: 400, message: `invalid JSON in request body${detail}` };
    }
}

const ENCODER = new TextEncoder();
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Decodes and parses a raw JSON body; invalid UTF-8 is a 400 too. */
export function parseJsonBytes(bytes: Uint8Array): BodyResult {
    if (bytes.byteLength === 0) {
        return EMPTY_BODY;
    }
    let text: string;
    try {
        text = UTF8.decode(bytes);
    } catch {
        return { ok: false, status: 400, message: 'request body is not valid UTF-8' };
    }
    return parseJsonText(text);
}

/**
 * A compressed body (`Content-Encoding: gzip` …) the adapter would read as JSON text: answered 415 (RFC 9110,
 * 15.5.16) instead of a misleading "invalid JSON" 400. A framework body parser that inflates (Express's
 * `express.json()`) leaves an already-parsed body, which is used as it is.
 */
export function unsupportedEncoding(header: string | string[] | null | undefined): BodyResult | undefined {
    const value = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
    if (value === '' || value === 'identity') return undefined;
    return { ok: false, status: 415, message: `unsupported content encoding "${value}": send the request body uncompressed` };
}

export function tooLarge(limit: number): BodyResult {
    return { ok: false, status: 413, message: `request body exceeds the limit of ${limit} bytes` };
}

/** The media types JSON body parsers (Next.js's, body-parser's default) parse. */
const JSON_MEDIA_TYPE = /^\s*application\/(?:ld\+)?json\s*(?:;|$)/i;

/**
 * A body a framework already read: an object is taken as is, text or bytes are parsed as JSON. Under a JSON
 * `contentType`, text is a string literal the framework's JSON parser has parsed already (Next.js turns
 * `"hello"` into `hello`, and `"{\"a\":1}"` into `{"a":1}`): the value itself, never parsed a second time.
 */
export function fromParsedBody(body: unknown, limit: number, contentType?: string | string[]): BodyResult {
    if (typeof body === 'string') {
        const oversized = body.length * 3 > limit && ENCODER.encode(body).byteLength > limit;
        if (oversized) return tooLarge(limit);
        return JSON_MEDIA_TYPE.test(String(contentType ?? '')) ? { ok: true, value: body } : parseJsonText(body);
    }
    if (body instanceof Uint8Array) {
        return body.byteLength > limit ? tooLarge(limit) : parseJsonBytes(body);
    }
    return { ok: true, value: body };
}

/** Content-Length as a number, or `undefined` when absent or malformed. */
export function declaredLength(header: string | string[] | null | undefined): number | undefined {
    const value = Array.isArray(header) ? header[0] : header;
    if (value === null || value === undefined || !/^\d+$/.test(value.trim())) {
        return undefined;
    }
    return Number(value.trim());
}
