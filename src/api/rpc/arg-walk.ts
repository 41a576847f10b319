import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';

/** Shared by the argument checks (arg-structure.ts, arg-aggregates.ts, arg-numbers.ts): how they refuse, and how they walk lists. */

export function fail(path: string, expected: string): never {
    throw new BadRequestError(`invalid arguments: "${path}" must be ${expected}`);
}

/** Keys that combine conditions. */
export const LOGICAL = new Set(['AND', 'OR', 'NOT']);

/** One object, or a list of objects; `fn` gets each with its path. */
export function objects(value: unknown, path: string, fn: (item: Record<string, unknown>, at: string) => void): void {
    if (Array.isArray(value)) {
        value.forEach((item, i) => {
            if (!isObject(item)) fail(`${path}.${i}`, 'an object');
            fn(item, `${path}.${i}`);
        });
    } else if (isObject(value)) {
        fn(value, path);
    } else {
        fail(path, 'an object or a list of objects');
    }
}
