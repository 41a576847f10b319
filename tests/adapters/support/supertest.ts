import type { Server } from 'node:http';
import request from 'supertest';
import { testResponse, type Harness, type SendInit } from './scenario';

type App = Parameters<typeof request>[0] | Server;

/** Drives a Node app (Express app, `http.Server`, request listener) through supertest. */
export function supertestHarness(app: App, close?: () => Promise<void>): Harness {
    return {
        async send({ method, url, body, headers }: SendInit) {
            let req = request(app as Parameters<typeof request>[0])[method.toLowerCase() as 'get'](url);
            for (const [k, v] of Object.entries(headers ?? {})) req = req.set(k, v);
            const res = body === undefined ? await req : await req.send(body);
            return testResponse(res.status, res.headers as Record<string, string>, res.text ?? '');
        },
        close,
    };
}
