/** A non-null, non-array object: a JSON object (or any record-like value). */
export function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
