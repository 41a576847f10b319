import type { LoggerConfig } from '../../types';

/* eslint-disable no-console */
const consoleLogger: LoggerConfig = {
    error: (message, code) => console.error(code ? `[zenstack-api] ${code}: ${message}` : `[zenstack-api] ${message}`),
    warn: (message, code) => console.warn(code ? `[zenstack-api] ${code}: ${message}` : `[zenstack-api] ${message}`),
};
/* eslint-enable no-console */

type Level = keyof LoggerConfig;

/** Logs to the configured logger: `undefined` means console (errors and warnings), `null` means silence. */
export function log(logger: LoggerConfig | null | undefined, level: Level, message: string, code?: string): void {
    const target = logger === undefined ? consoleLogger : logger;
    const fn = target?.[level];
    if (fn) {
        try {
            fn(message, code);
        } catch {
            // a broken logger must never break a request
        }
    }
}

/** The detail of an unexpected error for the log: message and stack, never sent to a client. */
export function describeError(err: unknown): string {
    if (err instanceof Error) {
        return err.stack ?? `${err.name}: ${err.message}`;
    }
    try {
        return JSON.stringify(err);
    } catch {
        return String(err);
    }
}
