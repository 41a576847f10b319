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

/**
 * Prisma's banner before the call it renders into a message: a validation error prints every argument value
 * (a hashed `@password`, `@omit` fields, filter values, the client's data), a known request error the caller's
 * source lines. Neither belongs in a log line.
 */
const INVOCATION_BANNER = /\n?(?:Invalid|It occurred in the) `[^`\n]{0,200}` invocation/;
/** The colours of Prisma's `pretty` error format, which would hide the banner and the end of the rendered call. */
// eslint-disable-next-line no-control-regex
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

/** Lines of Prisma's rendering of a call that carry no reason: the call site's file, its source lines, blanks. */
const CALL_SITE_LINE = /^\s*$|^\s*(→\s*)?\d+ |:\d+:\d+$/;

/**
 * An error message fit for a log line. An ORM message loses its rendered call: everything from the banner to
 * the `})` closing the arguments when it prints them, else the banner, the call site and its source lines;
 * what precedes the banner and the reason after it stay (a panic's reason is several lines).
 */
export function loggableMessage(raw: string): string {
    const message = raw.includes('\u001b[') ? raw.replace(ANSI_COLOUR, '') : raw;
    const banner = INVOCATION_BANNER.exec(message);
    if (!banner) {
        return message;
    }
    const lines = message.slice(banner.index + banner[0].length).split('\n');
    const callEnd = lines.map((line) => line.trim()).lastIndexOf('})');
    const reason = lines.slice(callEnd + 1).filter((line) => !CALL_SITE_LINE.test(line));
    const text = [message.slice(0, banner.index).trim(), ...reason.map((line) => line.trim())].filter((part) => part.length > 0).join(' ');
    return text.length > 0 ? text : 'data layer error';
}

/** The detail of an unexpected error for the log: name, message (without an ORM's rendered invocation) and stack frames; never sent to a client. */
export function describeError(err: unknown): string {
    if (err instanceof Error) {
        if (!INVOCATION_BANNER.test(err.message.replace(ANSI_COLOUR, ''))) {
            return err.stack ?? `${err.name}: ${err.message}`;
        }
        // the stack repeats the message (and so the rendered call) before its frames
        const header = `${err.name}: ${err.message}`;
        const stack = err.stack ?? '';
        const frames = (stack.startsWith(header) ? stack.slice(header.length) : stack).split('\n').filter((line) => /^\s+at \S/.test(line));
        return [`${err.name}: ${loggableMessage(err.message)}`, ...frames].join('\n');
    }
    try {
        return JSON.stringify(err);
    } catch {
        return String(err);
    }
}
