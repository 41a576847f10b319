import type { LoggerConfig } from '../../types';
import { cleanOrmMessage } from './errors';

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

/**
 * Prisma's banner before the call it renders into a message: a validation error prints every argument value
 * (a hashed `@password`, `@omit` fields, filter values, the client's data), a known request error the caller's
 * source lines. Neither belongs in a log line.
 */
const INVOCATION_BANNER = /\n?Invalid `[^`\n]{0,200}` invocation/;

/** An error message fit for a log line: an ORM message loses its rendered invocation, keeping what precedes it and its last line. */
export function loggableMessage(message: string): string {
    const banner = INVOCATION_BANNER.exec(message);
    if (!banner) {
        return message;
    }
    return `${message.slice(0, banner.index).trimEnd()} ${cleanOrmMessage(message.slice(banner.index))}`.trim();
}

/** The detail of an unexpected error for the log: name, message (without an ORM's rendered invocation) and stack frames; never sent to a client. */
export function describeError(err: unknown): string {
    if (err instanceof Error) {
        if (!INVOCATION_BANNER.test(err.message)) {
            return err.stack ?? `${err.name}: ${err.message}`;
        }
        const frames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
        return [`${err.name}: ${loggableMessage(err.message)}`, ...frames].join('\n');
    }
    try {
        return JSON.stringify(err);
    } catch {
        return String(err);
    }
}
