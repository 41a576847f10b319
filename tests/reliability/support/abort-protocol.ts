/** The messages between `client-aborts.test.ts` and its server process (`abort-server-child.ts`). */

/** A request carrying this header is served only once its client has gone, as if an async auth step ran first. */
export const AFTER_CLIENT_GONE = 'x-after-client-gone';
/** A request carrying this header makes the server report `reached` when `getPrisma` is called for it. */
export const REPORT_REACHED = 'x-report-reached';

export type ParentCommand = { type: 'stats' } | { type: 'hold' } | { type: 'release' } | { type: 'stop' };

export type ChildReport =
    | { type: 'started'; ports: Record<string, number> }
    | { type: 'failed'; error: string }
    /** A request marked AFTER_CLIENT_GONE waits for its client to go. */
    | { type: 'waiting' }
    /** `getPrisma` was called for a request marked REPORT_REACHED: its body has been read, the handler runs next. */
    | { type: 'reached' }
    /** The adapter of each request whose response nothing ended yet; what the handlers logged; uncaught exceptions and unhandled rejections. */
    | { type: 'stats'; unanswered: string[]; problems: string[]; logs: string[] }
    /** The `hold` transaction is open. */
    | { type: 'held' }
    /** The clients of the reached requests are gone, and the `hold` transaction has ended. */
    | { type: 'released' }
    | { type: 'stopped' };
