import { Worker } from 'node:worker_threads';
import type { HttpRequest, HttpResponse } from './http';

/**
 * Sends requests from a worker thread, with at most `concurrency` in flight, each on its own
 * keep-alive connection (round robin over several origins, as a load balancer would): the load does not
 * share the server's event loop, as real clients do not.
 * Plain JavaScript, so that the worker needs no TypeScript loader.
 */
const WORKER_SOURCE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { origins, requests, concurrency, userHeader } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
function send(req, origin) {
    const headers = {};
    if (req.user !== undefined) headers[userHeader] = String(req.user);
    const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
    if (payload) {
        headers['content-type'] = req.path.includes('/api/rest') ? 'application/vnd.api+json' : 'application/json';
        headers['content-length'] = String(payload.length);
    }
    return new Promise((resolve, reject) => {
        const r = http.request(origin + req.path, { method: req.method, headers, agent }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('error', reject);
            res.on('end', () => {
                const retryAfter = res.headers['retry-after'];
                resolve({ status: res.statusCode, contentType: String(res.headers['content-type'] || ''), retryAfter: retryAfter === undefined ? undefined : String(retryAfter), text: Buffer.concat(chunks).toString('utf8') });
            });
        });
        r.on('error', reject);
        r.end(payload);
    });
}
(async () => {
    const out = new Array(requests.length);
    let next = 0;
    const started = performance.now();
    async function worker() {
        while (next < requests.length) {
            const i = next++;
            const t0 = performance.now();
            try {
                out[i] = { res: await send(requests[i], origins[i % origins.length]), at: t0 - started, ms: performance.now() - t0 };
            } catch (err) {
                out[i] = { failure: String((err && err.cause) || err), at: t0 - started, ms: performance.now() - t0 };
            }
        }
    }
    await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
    agent.destroy();
    parentPort.postMessage({ out, durationMs: performance.now() - started });
})();
`;

export interface SentRequest {
    res?: Omit<HttpResponse, 'body'>;
    failure?: string;
    at: number;
    ms: number;
}

/** `origin`: the API, or several instances of it, which get the requests in turn (round robin). */
export function sendFromWorker(origin: string | string[], requests: HttpRequest[], concurrency: number, userHeader: string): Promise<{ out: SentRequest[]; durationMs: number }> {
    return new Promise((resolve, reject) => {
        const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { origins: Array.isArray(origin) ? origin : [origin], requests, concurrency, userHeader } });
        worker.once('message', (m) => {
            resolve(m);
            void worker.terminate();
        });
        worker.once('error', reject);
        worker.once('exit', (code) => {
            if (code !== 0) reject(new Error(`load client exited with ${code}`));
        });
    });
}
