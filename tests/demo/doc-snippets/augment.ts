// The `user` an application's authentication puts on a Fastify request (see doc-snippets.test.ts).
declare module 'fastify' {
    interface FastifyRequest {
        user?: { id: number; role?: string };
    }
}

export {};
