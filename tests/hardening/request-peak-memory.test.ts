import { includeOf } from '../rpc/support';
import { seededWorkerServerForFile, type WorkerServer } from './support/server-worker';

/**
 * How much heap requests within the adapters' limits (1 MiB of body) make the server hold at its peak. The server
 * runs in a worker thread whose old-generation heap is limited (`heapLimitMb`): a request that makes it hold more
 * ends the worker (ERR_WORKER_OUT_OF_MEMORY), and the request gets no answer.
 */

const HEAP_LIMIT_MB = 110;

/** The answer to a POST; no answer (the worker ran out of heap) throws, saying why. */
async function post(server: WorkerServer, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
    try {
        const res = await fetch(`${server.origin}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        return { status: res.status, body: await res.json() };
    } catch (err) {
        // the worker's error event may come just after the connection closed
        await new Promise((resolve) => setTimeout(resolve, 1000));
        throw new Error(`no answer: ${server.crashed?.message ?? (err as Error).message}`);
    }
}

const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const findPosts = (args: unknown) => [{ model: 'post', op: 'findMany', args }];

describe('the argument checks allocate nothing per value of a list (maxFilterValues off)', () => {
    // measured here: the worker answered within 75 MB and not within 70; before the fix it needed 135 to 150 MB
    const worker = seededWorkerServerForFile({ heapLimitMb: HEAP_LIMIT_MB, rpcOptions: { maxFilterValues: Infinity } });

    it('a 1 MiB `in` list of 520,000 numbers is answered within the heap limit', async () => {
        // the same value throughout: Prisma binds it once, so what the request costs is the handler's own work
        const answer = await post(worker.server, '/rpc/$transaction/sequential', findPosts({ where: { id: { in: range(520_000, () => 1) } }, select: { title: true } }));
        expect(worker.server.crashed).toBeUndefined();
        expect(answer).toEqual({ status: 200, body: { data: [[{ title: 'visible' }]] } });
    });
});

describe('filter lists beyond maxFilterValues are refused before the ORM compiles them', () => {
    // each of these made Prisma's query compiler hold about 160 MB (and keep 45 MB after the answer)
    const worker = seededWorkerServerForFile({ heapLimitMb: HEAP_LIMIT_MB });

    it('ten 1 MiB `notIn` lists of distinct numbers at once: ten 400s, within the heap limit', async () => {
        const body = findPosts({ where: { id: { notIn: range(150_000, (i) => i) } } });
        expect(JSON.stringify(body).length).toBeLessThan(1024 * 1024);
        const answers = await Promise.all(range(10, () => post(worker.server, '/rpc/$transaction/sequential', body)));
        expect(worker.server.crashed).toBeUndefined();
        for (const answer of answers) {
            expect(answer).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/^operation #0: too many values in the filters of one call: 150000 /) } } });
        }
    });

    it('a 1 MiB include naming 40,000 relations: a 400 within the heap limit (it ran the server out of 2 GB)', async () => {
        const body = findPosts({ take: 1, include: includeOf('post', 40_000) });
        expect(JSON.stringify(body).length).toBeLessThan(1024 * 1024);
        const answer = await post(worker.server, '/rpc/$transaction/sequential', body);
        expect(worker.server.crashed).toBeUndefined();
        expect(answer).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/^operation #0: too many relations read by one call/) } } });
        // and it still answers an ordinary read
        expect(await post(worker.server, '/rpc/$transaction/sequential', findPosts({ select: { title: true } }))).toEqual({ status: 200, body: { data: [[{ title: 'visible' }]] } });
    });
});
