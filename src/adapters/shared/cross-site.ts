/**
 * Cross-site request forgery: the one write a browser lets a page on another site send without asking the server
 * first (no CORS preflight) is a `POST` whose body is not declared JSON (an HTML form with
 * `enctype="text/plain"`, a `no-cors` fetch of a string or a typeless blob). The adapters read such a body as JSON,
 * with the user's cookies attached, so they refuse it when the browser says it came from another site. A body
 * declared JSON (`application/json`, `application/vnd.api+json` …) is never refused here: a browser sends it
 * cross-site only after a preflight that the application's CORS policy answers.
 */

/**
 * A body declared JSON: `application/json` or any `+json` suffix (`application/vnd.api+json` …). Wider than
 * `request.ts`'s JSON_MEDIA_TYPE (what framework parsers have parsed): any of these needs a preflight.
 */
const DECLARED_JSON = /^\s*application\/(?:[^\s;/]+\+)?json\s*(?:;|$)/i;

export const CROSS_SITE_MESSAGE =
    'cross-site request refused: a POST from another site must declare its body as JSON (Content-Type: application/json), ' +
    'which browsers send only after a CORS preflight';

/** Reads one request header (lower-case name) from whatever the framework hands over. */
export type HeaderLookup = (name: string) => string | null | undefined;

/** The `host[:port]` of an origin or a Host header, as URL normalizes it (lower case, default ports dropped). */
function hostOf(scheme: string, host: string): string | undefined {
    try {
        return new URL(`${scheme}//${host}`).host;
    } catch {
        return undefined;
    }
}

/** Whether a browser says `origin` is another origin than the server's `host` (`Origin: null` always is). */
function isOtherOrigin(origin: string, host: string | null | undefined): boolean {
    let parsed: URL;
    try {
        parsed = new URL(origin);
    } catch {
        return true; // `null` (a sandboxed page, a privacy redirect) or garbage
    }
    const own = host ? hostOf(parsed.protocol, host.trim()) : undefined;
    return own === undefined || own !== parsed.host;
}

/** Methods that read: a browser sends them anywhere, and they write nothing. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether to refuse this request as a cross-site forgery, when the browser marks it as sent from another site
 * (`Sec-Fetch-Site: cross-site` or `same-site`, so a sibling subdomain too) or, without `Sec-Fetch-Site` (an older
 * browser, or plain HTTP, where browsers do not send it), its `Origin` is not the server's own host (`ownHost`,
 * asked only then):
 * - a `POST` whose body is not declared JSON;
 * - any write whose body is not declared JSON that the browser says it sent without a preflight (a `Sec-Fetch-Mode`
 *   other than `cors`: a form's `navigate`, a `no-cors` fetch). A browser sends those only as `POST`, so this is a
 *   `POST` whose method the application rewrote before the adapter (Express's `method-override`, Hono's `methodOverride`:
 *   `POST /post/deleteMany?_method=DELETE`); `originalMethod` is what Express's `method-override` keeps of it.
 * A request without any of these headers (curl, a server, a test client) is never refused.
 */
export function isCrossSiteForgery(
    method: string,
    header: HeaderLookup,
    ownHost: () => string | null | undefined,
    originalMethod?: string,
): boolean {
    const seen = method.toUpperCase();
    // a browser sends a body declared JSON to another site only after a preflight, and a form or a no-cors fetch
    // cannot declare one: so is a server's own fetch that passes a page's `Sec-Fetch-*` on (an SSR render may)
    if (READS.has(seen) || DECLARED_JSON.test(header('content-type') ?? '')) return false;
    const site = header('sec-fetch-site')?.trim().toLowerCase();
    const fromOtherSite = site === 'cross-site' || site === 'same-site';
    const mode = header('sec-fetch-mode')?.trim().toLowerCase();
    if (fromOtherSite && mode && mode !== 'cors') return true;
    if (seen !== 'POST' && originalMethod?.toUpperCase() !== 'POST') return false;
    if (site) return fromOtherSite;
    const origin = header('origin');
    return origin !== null && origin !== undefined && isOtherOrigin(origin.trim(), ownHost());
}
