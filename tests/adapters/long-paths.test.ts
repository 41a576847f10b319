import { pathFromRestParam } from '../../src/adapters/shared/request';
import { seededWorkerServerForFile, stillAnswers } from '../hardening/support/server-worker';

/**
 * The Fetch-based adapters that take the API path from a router's rest parameter (Next.js, SvelteKit, TanStack Start,
 * Fastify) look that parameter up in the URL as sent. That took time quadratic in the URL: every tail of fitting
 * length was decoded (a 16 KiB URL of `%61/` segments, within Node's default head size: most of a second; 240 KB:
 * minutes), and a long run of slashes went through a backtracking `/\/+$/`. The server runs in a worker thread (the
 * TanStack Start adapter, `maxHeaderSize` raised as a Fetch runtime without Node's limit would take such URLs), so
 * that the test can see whether it still answers; the test's timeout is what fails when it does not.
 */

/** Far beyond what the answers take (milliseconds), far below what the old look-up took (minutes). */
const TIMEOUT = 30_000;

const worker = seededWorkerServerForFile();

async function get(path: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${worker.server.origin}${path}`);
    return { status: res.status, body: await res.json() };
}

it(
    'a URL of 60,000 percent-encoded segments is answered (400: no such operation), and the server answers meanwhile',
    async () => {
        const res = await stillAnswers(worker.server, () => get(`/rpc/post/findMany/${'%61/'.repeat(60_000)}x`));
        expect(res).toEqual({ status: 400, body: { error: { message: expect.stringMatching(/path/) } } });
    },
    TIMEOUT,
);

it(
    'a run of 300,000 slashes before the API path is answered, and the server answers meanwhile',
    async () => {
        const res = await stillAnswers(worker.server, () => get(`/rpc/${'/'.repeat(300_000)}post/count`));
        expect(res).toEqual({ status: 200, body: { data: 1 } });
    },
    TIMEOUT,
);

describe('pathFromRestParam finds the same tails as before', () => {
    it.each([
        ['/api/post/a%2Fb%20c', 'post/a/b c', '/post/a%2Fb%20c'],
        ['/api/post/a%2Fb%20c', 'post/a%2Fb c', '/post/a%2Fb%20c'],
        ['/api/post/1/', 'post/1', '/post/1'],
        ['/api//post///1//', 'post/1', '/post/1'],
        ['/api/%E2%82%AC/x', '€/x', '/%E2%82%AC/x'],
        ['/api/%FF/x', '%FF/x', '/%FF/x'],
        ['/api/%25/x', '%/x', '/%25/x'],
        ['/api/a/b', 'c', undefined],
    ])('%s with %s', (pathname, rest, expected) => {
        expect(pathFromRestParam(pathname, rest)).toBe(expected);
    });

    it('an array parameter not found in the URL is re-encoded segment by segment', () => {
        expect(pathFromRestParam('/rewritten', ['post', 'a/b'])).toBe('/post/a%2Fb');
    });
});
