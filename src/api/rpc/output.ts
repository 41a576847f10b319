import { serializeValue } from '../common/codec';
import type { Response } from '../../types';

/** The success body: `{ data }`, plus `meta.serialization` only when the result holds typed values. */
export interface RpcSuccessBody {
    data: unknown;
    meta?: { serialization: { values: Record<string, unknown> } };
}

export function renderResult(result: unknown, status: number): Response & { body: RpcSuccessBody } {
    const { json, values } = serializeValue(result === undefined ? null : result);
    const body: RpcSuccessBody = { data: json };
    if (values) {
        body.meta = { serialization: { values } };
    }
    return { status, body };
}
