import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { CACHE_ROOT, PROJECT_ROOT } from '../../support/generator-processes';
import type { TestSchema } from '../../support/schema';

/** Server processes on one database (`server-child.ts`), as instances behind a load balancer. */
export interface ServerProcesses {
    origins: string[];
    /** Stops every process; what each one's handlers logged. */
    stop(): Promise<string[][]>;
}

type ChildMessage = { origin?: string; logs?: string[]; error?: string };

function nextMessage(child: ChildProcess): Promise<ChildMessage> {
    return new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`server process ${child.pid} exited with ${code} before answering`));
        child.once('exit', onExit);
        child.once('message', (m) => {
            child.off('exit', onExit);
            resolve(m as ChildMessage);
        });
    });
}

/**
 * A child process script of this folder (`server-child.ts` by default) and the project's sources as one CommonJS
 * file (packages stay in node_modules), under the project's test cache so that they resolve: each process then
 * starts in about a second, where compiling the sources with ts-node took each of three processes 5–8 s of a
 * 2-core machine. The caller removes the file.
 */
export async function bundleChild(entry = 'server-child.ts'): Promise<string> {
    const dir = path.join(CACHE_ROOT, 'server-child');
    fs.mkdirSync(dir, { recursive: true });
    const outfile = path.join(dir, `${path.basename(entry, '.ts')}-${process.pid}-${randomBytes(4).toString('hex')}.js`);
    await build({
        entryPoints: [path.join(__dirname, entry)],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'cjs',
        packages: 'external',
        logLevel: 'error',
    });
    return outfile;
}

/**
 * Starts `count` server processes on the database of `schema` (one `loadSchema` made: a PostgreSQL database, or
 * a SQLite file that each process opens with its own connection, `sqliteTimeout` being its busy timeout in ms).
 */
export async function startServerProcesses(schema: TestSchema, count: number, options: { sqliteTimeout?: number } = {}): Promise<ServerProcesses> {
    const script = await bundleChild();
    const children = Array.from({ length: count }, () =>
        fork(script, [], {
            cwd: PROJECT_ROOT,
            env: { ...process.env, SCALE_DATABASE_URL: schema.databaseUrl, SCALE_GENERATED_DIR: schema.generatedDir, SCALE_SQLITE_TIMEOUT: String(options.sqliteTimeout ?? '') },
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        }),
    );
    const stop = async () => {
        try {
            return await Promise.all(
                children.map(async (child) => {
                    if (child.exitCode !== null || !child.connected) return [`server process ${child.pid} gone before the end (exit ${child.exitCode})`];
                    const answer = nextMessage(child);
                    child.send('stop');
                    return (await answer).logs ?? [];
                }),
            );
        } finally {
            fs.rmSync(script, { force: true });
        }
    };
    try {
        const started = await Promise.all(children.map(nextMessage));
        const failed = started.find((m) => !m.origin);
        if (failed) throw new Error(`a server process did not start: ${failed.error}`);
        return { origins: started.map((m) => m.origin!), stop };
    } catch (err) {
        for (const child of children) if (child.exitCode === null) child.kill();
        fs.rmSync(script, { force: true });
        throw err;
    }
}
