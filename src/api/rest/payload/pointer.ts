import { RestError, type RestErrorCode } from '../errors';

export { escapePointerToken, pointerFromKeys, pointerTo } from '../json-pointer';

/** A 400 (or another payload code) pointing at the offending member of the request body. */
export function payloadError(pointer: string, detail: string, code: RestErrorCode = 'invalid-payload'): RestError {
    return new RestError(code, detail, { source: { pointer } });
}

/** `isObject`: a non-null, non-array object (what JSON:API calls an object); `hasOwn`: an own property. */
export { hasOwn, isObject } from '../../common/guards';
