import type { Mounted } from './server/mount';
import type { Scenario } from './scenarios';
import { BENCH_USER_ID } from './seed';
import { parseQuery, splitUrl, type ParsedRequest } from './server/http';

/** A scenario's request as the bench servers hand it to an implementation, for the in-process measurements. */
export function parsedRequest(scenario: Scenario): { mount: keyof Mounted; req: ParsedRequest } {
    const r = scenario.request(0);
    const url = splitUrl(r.path);
    if (!url) throw new Error(`${scenario.name}: not an /api/rest or /api/rpc path`);
    return { mount: url.mount as keyof Mounted, req: { method: r.method, path: url.path, query: parseQuery(url.search), body: r.body, userId: BENCH_USER_ID } };
}
