import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { PROJECT_ROOT } from '../../support/generator-processes';
import type { TestSchema } from '../../support/schema';
import type { ChildReport, ParentCommand } from './abort-protocol';
import { bundleChild } from './server-processes';

type Report<T extends ChildReport['type']> = Extract<ChildReport, { type: T }>;
export type ServerStats = Report<'stats'>;

/** The server process of `abort-server-child.ts`, started on the database of a `loadSchema` schema. */
export interface AbortServer {
    /** The port of each adapter's server (`node`, `express`, `express.json`, `fastify`, `next`, `h3`). */
    ports: Record<string, number>;
    /** The next report of this type; rejects when the process exits first. */
    next<T extends ChildReport['type']>(type: T): Promise<Report<T>>;
    command(command: ParentCommand): void;
    /**
     * The server's stats once it has answered every request it received, or after `deadlineMs` anyway (then with
     * requests still `unanswered`: stuck for good, as nothing is slow here).
     */
    settled(deadlineMs?: number): Promise<ServerStats>;
    stop(): Promise<void>;
}

export async function startAbortServer(schema: TestSchema): Promise<AbortServer> {
    const script = await bundleChild('abort-server-child.ts');
    const child: ChildProcess = fork(script, [], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, ABORT_DATABASE_URL: schema.databaseUrl, ABORT_GENERATED_DIR: schema.generatedDir },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const received: ChildReport[] = [];
    const waiters: { type: string; resolve: (r: ChildReport) => void; reject: (e: Error) => void }[] = [];
    let exited: Error | undefined;
    const deliver = () => {
        for (const waiter of [...waiters]) {
            const at = received.findIndex((r) => r.type === waiter.type);
            if (at >= 0) {
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.resolve(received.splice(at, 1)[0]);
            } else if (exited) {
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.reject(exited);
            }
        }
    };
    child.on('message', (m) => {
        received.push(m as ChildReport);
        deliver();
    });
    child.on('exit', (code, signal) => {
        exited = new Error(`the server process exited (code ${code}, signal ${signal})`);
        deliver();
    });
    const next = <T extends ChildReport['type']>(type: T) =>
        new Promise<Report<T>>((resolve, reject) => {
            waiters.push({ type, resolve: resolve as (r: ChildReport) => void, reject });
            deliver();
        });
    const command = (c: ParentCommand) => {
        if (exited) throw exited;
        child.send(c);
    };
    const stats = () => {
        const answer = next('stats');
        command({ type: 'stats' });
        return answer;
    };
    try {
        const first = await Promise.race([next('started'), next('failed')]);
        if (first.type === 'failed') throw new Error(`the server process did not start: ${first.error}`);
        return {
            ports: first.ports,
            next,
            command,
            settled: async (deadlineMs = 10_000) => {
                const until = Date.now() + deadlineMs;
                for (;;) {
                    const now = await stats();
                    if (now.unanswered.length === 0 || Date.now() > until) return now;
                    await new Promise((resolve) => setTimeout(resolve, 50));
                }
            },
            stop: async () => {
                try {
                    if (!exited) {
                        const stopped = next('stopped');
                        command({ type: 'stop' });
                        await stopped;
                    }
                } finally {
                    fs.rmSync(script, { force: true });
                }
            },
        };
    } catch (err) {
        if (child.exitCode === null) child.kill();
        fs.rmSync(script, { force: true });
        throw err;
    }
}

/** Opens a connection to the server and writes `text` (a request's head and as much of its body as given). */
export function connectAndWrite(port: number, text: string): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(text, () => resolve(socket)));
        socket.on('error', reject); // after it resolved: ignored (the test destroys it)
    });
}

/** A request head with a JSON body's headers; `length`: the declared Content-Length, else chunked. */
export function postHead(path: string, headers: Record<string, string>, length?: number): string {
    const lines = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', length === undefined ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    return `${lines.join('\r\n')}\r\n\r\n`;
}

/** A whole JSON POST, with its Content-Length. */
export function wholePost(path: string, body: unknown, headers: Record<string, string> = {}): string {
    const text = JSON.stringify(body);
    return postHead(path, headers, Buffer.byteLength(text)) + text;
}
