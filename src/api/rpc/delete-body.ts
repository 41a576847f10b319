import { BadRequestError } from '../common/errors';
import { isPlainObject } from '../common/guards';
import { bodyHasContent, readBodyArgs, type RawArgs } from './input';

/**
 * A `DELETE` takes its arguments from `q`/`meta`. ZenStack's generated SWR hooks (`@zenstackhq/swr`) send
 * the same arguments in the body too (serialized as a POST body is: `{ ...args, meta: { serialization } }`),
 * which 2.x ignored. A body carrying exactly the arguments of the query is accepted; any other body is a 400:
 * ignoring it would run the deletion without the filter the client meant (a `deleteMany` of every row).
 */
export function checkDeleteBody(operation: string, requestBody: unknown, fromQuery: RawArgs): void {
    if (!bodyHasContent(requestBody)) return;
    const fromBody = readBodyArgs(requestBody, false);
    if (sameJson(fromBody.json, fromQuery.json) && sameJson(fromBody.serialization, fromQuery.serialization)) return;
    throw new BadRequestError(`${operation} takes its arguments in the "q" query parameter, not in the request body (a body may only repeat them)`);
}

/** Equality of parsed JSON values, whatever the order of object keys. Nesting is bounded by `assertSafeJson` before. */
function sameJson(a: unknown, b: unknown): boolean {
    if (a === b) return true;
    if (Array.isArray(a)) {
        return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
    }
    if (!isPlainObject(a) || !isPlainObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameJson(a[key], b[key]));
}
