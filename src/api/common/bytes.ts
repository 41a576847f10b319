/**
 * Base64 and UTF-8 for runtimes with and without Node's `Buffer`. Node (and Bun, Deno) keep `Buffer`, native and
 * fastest; an edge runtime without it (Vercel Edge, Cloudflare Workers without `nodejs_compat`) uses the web's
 * `btoa`/`atob` and `TextEncoder`/`TextDecoder`, which give the same results.
 */

// the type only: at run time `Buffer` is looked up on the global object, where an edge runtime has none
const NODE_BUFFER: typeof Buffer | undefined = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** Bytes per `String.fromCharCode` call: well under any engine's limit on arguments. */
const CHUNK = 0x8000;

/** Standard Base64 (with padding) of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
    if (NODE_BUFFER) {
        return NODE_BUFFER.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
    }
    let binary = '';
    for (let i = 0; i < bytes.length; i += CHUNK) {
        binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
    }
    return btoa(binary);
}

/**
 * The bytes of a Base64 text already checked to be in one alphabet, standard or URL-safe, with or without its
 * padding (a `Buffer` on Node). Bits past the last whole byte are dropped, as `Buffer` and `atob` both do.
 */
export function fromBase64(text: string): Uint8Array {
    if (NODE_BUFFER) {
        return NODE_BUFFER.from(text, 'base64');
    }
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) {
        bytes[i] = binary.charCodeAt(i);
    }
    return bytes;
}

const ENCODER = new TextEncoder();
// `ignoreBOM`: a leading byte order mark stays in the text, as `Buffer#toString` leaves it
const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

/** The UTF-8 bytes of `text`. */
export function utf8Bytes(text: string): Uint8Array {
    return ENCODER.encode(text);
}

/** `bytes` decoded as UTF-8, a malformed sequence replaced by U+FFFD. */
export function utf8Text(bytes: Uint8Array): string {
    return NODE_BUFFER ? NODE_BUFFER.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') : DECODER.decode(bytes);
}
