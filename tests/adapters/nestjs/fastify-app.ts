/**
 * The blog schema served through `ZenStackModule` and `ApiHandlerService` on NestJS's Fastify platform
 * (`@nestjs/platform-fastify`), run in a child process by nestjs-fastify.test.ts. Two apps: `bare` as Nest creates it,
 * and `parser` with the `application/vnd.api+json` parser docs/adapters.md tells Fastify users to register; both
 * also have the Fastify plugin registered on Nest's Fastify instance under `/plugin/rpc`.
 * It prints `READY <json>` with their ports and stops when stdin closes; `/__raw/:model/:op` reaches the raw client.
 */
import 'reflect-metadata';
import { All, Body, Controller, Inject, Module, Param, Post, UnauthorizedException } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { ZenStackFastifyPlugin } from '../../../src/adapters/fastify';
import { ApiHandlerService, ZenStackModule } from '../../../src/adapters/nestjs';
import { createFixture, RPC_PREFIX, REST_PREFIX, USER_HEADER, type AdapterFixture } from '../support/fixture';

async function createApp(f: AdapterFixture, vndParser: boolean): Promise<NestFastifyApplication> {
    @Controller(RPC_PREFIX.slice(1))
    class RpcController {
        constructor(@Inject(ApiHandlerService) private readonly api: ApiHandlerService) {}

        @All('*') // Fastify's route syntax (find-my-way): '{*path}' is Express's
        handle() {
            return this.api.handleRequest({ ...f.common, handler: f.rpc, baseUrl: RPC_PREFIX });
        }
    }

    @Controller(REST_PREFIX.slice(1))
    class RestController {
        constructor(@Inject(ApiHandlerService) private readonly api: ApiHandlerService) {}

        @All('*') // Fastify's route syntax (find-my-way): '{*path}' is Express's
        handle() {
            return this.api.handleRequest({ ...f.common, handler: f.rest, baseUrl: REST_PREFIX });
        }
    }

    /** A custom handler answering a header no server could send (a line break in its value): a logged, generic 500. */
    @Controller('bad-header')
    class BadHeaderController {
        constructor(@Inject(ApiHandlerService) private readonly api: ApiHandlerService) {}

        @All('*')
        handle() {
            return this.api.handleRequest({ ...f.common, handler: async () => ({ status: 200, body: { ok: true }, headers: { 'x-a': 'a\nb' } }), baseUrl: '/bad-header' });
        }
    }

    @Controller('__raw')
    class RawController {
        @Post(':model/:op')
        async run(@Param('model') model: string, @Param('op') op: string, @Body() args: unknown) {
            const result = (await f.schema.prisma[model][op](args)) ?? null;
            return { result: JSON.parse(JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))) };
        }
    }

    @Module({
        imports: [
            ZenStackModule.registerAsync({
                // Fastify's request: the user from a header, as an app's auth would read its session
                useFactory: (req: { headers: Record<string, string | undefined> }) => ({
                    getEnhancedPrisma: () => {
                        const user = req.headers[USER_HEADER];
                        if (user === 'nest-401') throw new UnauthorizedException('bad token');
                        return f.getPrisma(user);
                    },
                }),
                inject: [REQUEST],
            }),
        ],
        controllers: [RpcController, RestController, BadHeaderController, RawController],
        providers: [ApiHandlerService],
    })
    class AppModule {}

    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
    // #2048's other way: the Fastify plugin registered on the Fastify instance under Nest, beside Nest's routes
    await app.register(ZenStackFastifyPlugin, {
        ...f.common,
        prefix: '/plugin/rpc',
        handler: f.rpc,
        getPrisma: (req) => f.getPrisma(req.headers[USER_HEADER] as string | undefined),
    });
    if (vndParser) {
        // as docs/adapters.md shows: hand the text over, the service parses it
        app.getHttpAdapter()
            .getInstance()
            .addContentTypeParser('application/vnd.api+json', { parseAs: 'string' }, (_req, text, done) => done(null, text));
    }
    await app.listen(0, '127.0.0.1');
    return app;
}

async function main(): Promise<void> {
    const f = await createFixture();
    const apps = { bare: await createApp(f, false), parser: await createApp(f, true) };
    const port = (app: NestFastifyApplication) => (app.getHttpServer().address() as { port: number }).port;
    process.stdout.write(`READY ${JSON.stringify({ bare: port(apps.bare), parser: port(apps.parser) })}\n`);
    process.stdin.on('end', () => {
        void (async () => {
            await apps.bare.close();
            await apps.parser.close();
            await f.schema.cleanup();
            process.exit(0);
        })();
    });
    process.stdin.resume();
}

main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
});
