/** JSON Pointers (RFC 6901) into request bodies, for `source.pointer` of error objects. */

/** Escapes one JSON Pointer reference token (RFC 6901): `~` → `~0`, `/` → `~1`. */
export function escapePointerToken(token: string | number): string {
    return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Appends reference tokens to a JSON Pointer. */
export function pointerTo(base: string, ...tokens: Array<string | number>): string {
    let out = base;
    for (const t of tokens) out += `/${escapePointerToken(t)}`;
    return out;
}

/** The JSON Pointer of a superjson dotted path already split into keys (`data.attributes.bytes` → `/data/attributes/bytes`). */
export function pointerFromKeys(keys: readonly string[]): string {
    return pointerTo('', ...keys);
}
