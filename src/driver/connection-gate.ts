/**
 * Keeps statements sent outside a transaction from running inside another caller's open transaction
 * on a driver adapter that has one connection for everything (Prisma's SQLite adapters).
 *
 * `@prisma/adapter-better-sqlite3` runs every statement on one better-sqlite3 connection. Its lock
 * makes transactions wait for each other, but a statement sent outside a transaction runs at once, on
 * the same connection, and so inside whatever transaction is open there: it reads that transaction's
 * uncommitted rows, and when that transaction rolls back, it rolls back the statement's write too,
 * after its caller has been told it succeeded. Under concurrent requests that loses acknowledged
 * writes whenever another request's transaction fails (a policy check after a nested write, a 409).
 *
 * The gate hands the connection out first come, first served: a transaction holds it alone from its
 * start to its COMMIT or ROLLBACK; statements outside a transaction run at once when no transaction
 * holds it or waits for it, and otherwise queue in order behind it. A statement that the transaction's
 * own callback sends outside the transaction (on the outer client) therefore waits for that
 * transaction to end, as it would on any database where the transaction has locked the rows it needs:
 * Prisma's transaction timeout ends the wait.
 */
export class ConnectionGate {
    private held = false;
    private readonly queue: { exclusive: boolean; grant: () => void }[] = [];

    /** Runs a statement outside any transaction: now if nothing holds or waits for the connection, else in turn. */
    statement<T>(run: () => Promise<T>): Promise<T> {
        if (!this.held && this.queue.length === 0) {
            // at once, not a tick later: a transaction could take the connection in between
            try {
                return run();
            } catch (err) {
                return Promise.reject(err);
            }
        }
        return new Promise<void>((grant) => this.queue.push({ exclusive: false, grant })).then(run);
    }

    /** Waits for the connection for a transaction; the caller must call `release` exactly once when it ends. */
    acquire(): Promise<void> {
        if (!this.held && this.queue.length === 0) {
            this.held = true;
            return Promise.resolve();
        }
        return new Promise<void>((grant) => this.queue.push({ exclusive: true, grant }));
    }

    /** Ends a transaction's hold: lets the statements queued behind it run, up to the next transaction. */
    release(): void {
        this.held = false;
        while (this.queue.length > 0) {
            const next = this.queue.shift()!;
            if (next.exclusive) {
                this.held = true;
                next.grant();
                return;
            }
            next.grant();
        }
    }
}
