import { errorBodyProblem, q, send, type HttpRequest, type HttpResponse, type Protocol } from './http';

/**
 * The requests the fault tests send while the database is down and after it is back: a read and a
 * write in each protocol, and an RPC transaction. Every write's title carries `tag`, so the tables
 * tell afterwards which of them were stored.
 */
export interface Probe {
    name: string;
    protocol: Protocol;
    write: boolean;
    request: (tag: string) => HttpRequest;
    /** The titles of the posts the request writes when it succeeds. */
    titles: (tag: string) => string[];
}

const none = () => [];

export function probesFor(author: number): Probe[] {
    return [
        { name: 'RPC read', protocol: 'rpc', write: false, titles: none, request: () => ({ method: 'GET', path: `/api/rpc/post/findMany${q({ take: 5 })}`, user: author }) },
        { name: 'REST read', protocol: 'rest', write: false, titles: none, request: () => ({ method: 'GET', path: '/api/rest/post?page[limit]=5', user: author }) },
        {
            name: 'RPC create',
            protocol: 'rpc',
            write: true,
            titles: (tag) => [`${tag} rpc`],
            request: (tag) => ({ method: 'POST', path: '/api/rpc/post/create', body: { data: { title: `${tag} rpc`, authorId: author } }, user: author }),
        },
        {
            name: 'REST create',
            protocol: 'rest',
            write: true,
            titles: (tag) => [`${tag} rest`],
            request: (tag) => ({
                method: 'POST',
                path: '/api/rest/post',
                body: { data: { type: 'post', attributes: { title: `${tag} rest` }, relationships: { author: { data: { type: 'user', id: author } } } } },
                user: author,
            }),
        },
        {
            name: 'RPC transaction',
            protocol: 'rpc',
            write: true,
            titles: (tag) => [`${tag} tx 1`, `${tag} tx 2`],
            request: (tag) => ({
                method: 'POST',
                path: '/api/rpc/$transaction/sequential',
                body: [
                    { model: 'post', op: 'create', args: { data: { title: `${tag} tx 1`, authorId: author } } },
                    { model: 'post', op: 'create', args: { data: { title: `${tag} tx 2`, authorId: author } } },
                ],
                user: author,
            }),
        },
    ];
}

/** Titles a run of all probes with `tag` writes when it succeeds, in order. */
export function titlesOf(tag: string): string[] {
    return probesFor(0).flatMap((p) => p.titles(tag));
}

export interface ProbeResult {
    probe: Probe;
    res: HttpResponse;
}

export async function sendProbes(origin: string, probes: Probe[], tag: string): Promise<ProbeResult[]> {
    const out: ProbeResult[] = [];
    for (const probe of probes) {
        out.push({ probe, res: await send(origin, probe.request(tag)) });
    }
    return out;
}

/**
 * Why a response is not a clean "database unavailable" answer: 503, the protocol's error format, no
 * stack or ORM banner, a message that says so (RPC) or the `service-unavailable` code (REST).
 */
export function unavailableProblem({ probe, res }: ProbeResult): string | undefined {
    const where = `${probe.name}: ${res.status} ${res.text.slice(0, 300)}`;
    if (res.status !== 503) return `${where}: expected 503`;
    if (res.retryAfter !== '1') return `${where}: expected Retry-After: 1, got ${res.retryAfter}`;
    const problem = errorBodyProblem(probe.protocol, res);
    if (problem) return `${probe.name}: ${problem}`;
    const message: string = probe.protocol === 'rpc' ? res.body.error.message : res.body.errors[0].detail;
    if (!/try again/.test(message)) return `${where}: the message does not say to try again`;
    if (probe.protocol === 'rest' && res.body.errors[0].code !== 'service-unavailable') return `${where}: expected code service-unavailable`;
    return undefined;
}

/** Names and statuses, for readable assertions: `['RPC read 200', …]`. */
export function statuses(results: ProbeResult[]): string[] {
    return results.map((r) => `${r.probe.name} ${r.res.status}`);
}

/** What a healthy API answers to the probes. */
export function healthy(probes: Probe[]): string[] {
    return probes.map((p) => `${p.name} ${p.write ? (p.name === 'RPC transaction' ? 200 : 201) : 200}`);
}
