/**
 * How the demo server starts and stops as an operator sees it: a bad PORT or a port it cannot have is told
 * in one line (exit 1), and SIGTERM/SIGINT stop it gracefully within a bound.
 */
import type { Server } from 'node:http';

/** How long requests in flight may take to finish after SIGTERM/SIGINT before their connections are cut. */
export const SHUTDOWN_GRACE_MS = 5000;

/** Says why the demo cannot start, in one line, and exits 1. */
export function fail(message: string): never {
    // eslint-disable-next-line no-console
    console.error(`zenstack-api demo: ${message}`);
    process.exit(1);
}

/** PORT as a number (default 3000; 0 picks a free port). */
export function portFromEnv(raw = process.env.PORT): number {
    if (raw === undefined || raw === '') return 3000;
    const port = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
    if (!(port <= 65535)) fail(`PORT must be a port number from 0 to 65535, not "${raw}"`);
    return port;
}

/** The one line that explains a failed `listen`. */
export function listenFailure(err: NodeJS.ErrnoException, port: number): string {
    switch (err.code) {
        case 'EADDRINUSE':
            return `port ${port} is already in use (is the demo already running?): stop that process, or choose another port, e.g. PORT=${port + 1} npm start`;
        case 'EACCES':
            return `not allowed to listen on port ${port}: choose a PORT above 1023`;
        default:
            return `cannot listen on port ${port}: ${err.message}`;
    }
}

/**
 * On SIGTERM or SIGINT: stop accepting connections, let requests in flight finish (for at most
 * SHUTDOWN_GRACE_MS, then cut their connections; a second signal cuts them at once), close the database
 * client, exit 0.
 */
export function stopOnSignals(server: Server, closeDatabase: () => Promise<void>): void {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
        if (stopping) {
            server.closeAllConnections();
            return;
        }
        stopping = true;
        // eslint-disable-next-line no-console
        console.log(`${signal}: finishing the requests in flight (at most ${SHUTDOWN_GRACE_MS / 1000} s), then stopping`);
        const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        // should closing the database hang (a database server gone away), exit anyway
        setTimeout(() => fail('the database client did not close in time'), SHUTDOWN_GRACE_MS + 5000).unref();
        server.close(() => {
            clearTimeout(cut);
            closeDatabase().then(
                () => process.exit(0),
                (err: Error) => fail(`closing the database client failed: ${err.message}`),
            );
        });
        // keep-alive connections with no request in flight would otherwise hold the server open
        server.closeIdleConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // a signal that reached the shell and the server alike (Ctrl-C) has started the stop already: keep its grace
    stopWhenOrphaned(() => stopping || stop('SIGTERM'));
}

/**
 * Under `npm start` the server runs below a shell that npm started. npm forwards a SIGTERM or SIGINT it receives
 * to that shell, and a shell like dash dies of it without passing it on, which would leave the server running with
 * no parent, still holding its port and its database. So under npm, the server stops as for a SIGTERM when its
 * parent is gone (its parent process id changes). Started otherwise (`node`, `nohup`), it keeps running.
 */
function stopWhenOrphaned(stop: () => void): void {
    if (!process.env.npm_lifecycle_event) return;
    const parent = process.ppid;
    const watch = setInterval(() => {
        if (process.ppid === parent) return;
        clearInterval(watch);
        stop();
    }, 500);
    watch.unref();
}
