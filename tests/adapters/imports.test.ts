/**
 * Framework packages are optional peers: loading one adapter must not load another framework
 * (importing `zenstack-api/express` must work without Next.js installed). Each adapter is loaded in
 * isolation with every framework it must not need replaced by a module that throws when loaded.
 * (The NestJS adapter needs only @nestjs/*; it is loaded by the NestJS tests in a child process.)
 */
const FRAMEWORKS = ['next', 'next/server', 'express', 'fastify', 'hono', 'elysia', 'h3', '@sveltejs/kit', '@nestjs/common', '@nestjs/core'];

const ADAPTERS: Record<string, string[]> = {
    fetch: [],
    node: [],
    express: [],
    fastify: [],
    next: ['next/server'],
    sveltekit: [],
    hono: [],
    elysia: [],
    'tanstack-start': [],
    nuxt: ['h3'],
};

describe('adapter modules load only their own framework', () => {
    afterEach(() => {
        for (const framework of FRAMEWORKS) jest.dontMock(framework);
    });

    for (const [adapter, allowed] of Object.entries(ADAPTERS)) {
        it(adapter, () => {
            jest.isolateModules(() => {
                for (const framework of FRAMEWORKS.filter((f) => !allowed.includes(f))) {
                    jest.doMock(
                        framework,
                        () => {
                            throw new Error(`the ${adapter} adapter loaded ${framework}`);
                        },
                        { virtual: true },
                    );
                }
                // eslint-disable-next-line @typescript-eslint/no-require-imports
                const mod = require(`../../src/adapters/${adapter}`);
                expect(typeof mod.default).toBe('function');
            });
        });
    }
});
