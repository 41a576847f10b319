import { spawn, type ChildProcess } from 'node:child_process';
import { PROJECT_ROOT as ROOT, TS_REGISTER } from '../../support/generate';

/** An app running in a child Node process, with the ports it printed when ready. */
export interface ChildApp<Ports> {
    child: ChildProcess;
    ports: Ports;
}

/**
 * Starts `script` (TypeScript, through `scripts/ts-register.js`) in a child Node process and waits for its `READY <json>` line.
 * NestJS 12 is published as ES modules only, which jest's module loader cannot load; Node's own `require` can,
 * so the NestJS apps under test run this way and the tests talk to them over real HTTP.
 */
export function startChildApp<Ports>(script: string): Promise<ChildApp<Ports>> {
    const child = spawn(process.execPath, ['-r', TS_REGISTER, script], {
        cwd: ROOT,
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new Promise((resolve, reject) => {
        let out = '';
        let err = '';
        child.stdout!.on('data', (chunk) => {
            out += String(chunk);
            const match = /READY (\{.*\})\n/.exec(out);
            if (match) resolve({ child, ports: JSON.parse(match[1]) });
        });
        child.stderr!.on('data', (chunk) => (err += String(chunk)));
        child.on('exit', (code) => reject(new Error(`the app exited (${code}) before it was ready:\n${err}`)));
    });
}

/** Stops a child started by `startChildApp`: it exits when its stdin closes. */
export function stopChildApp(child: ChildProcess): Promise<void> {
    return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on('exit', () => resolve());
        child.stdin!.end();
    });
}
