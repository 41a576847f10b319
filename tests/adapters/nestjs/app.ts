/**
 * A NestJS application serving the blog schema through `ZenStackModule` and `ApiHandlerService`, run in a
 * child process by nestjs.test.ts (NestJS 12 ships as ES modules, which jest's module system cannot load;
 * Node's own `require` can). It prints `READY <json>` with its ports, and stops when stdin closes.
 * Besides the API it exposes `/__raw/:model/:op` (raw, policy-free client) and `/__errors` (what the adapter
 * logged), for the test to seed and inspect.
 */
import { EventEmitter } from 'node:events';
import 'reflect-metadata';
import {
    All,
    Body,
    Catch,
    Controller,
    ForbiddenException,
    Get,
    HttpException,
    Inject,
    Injectable,
    Module,
    Param,
    Post,
    Res,
    UseFilters,
    UnauthorizedException,
    UseInterceptors,
    type ArgumentsHost,
    type CallHandler,
    type ExceptionFilter,
    type INestApplication,
    type NestInterceptor,
} from '@nestjs/common';
import { HttpAdapterHost, REQUEST } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { IncomingMessage } from 'node:http';
import { map } from 'rxjs';
import { ApiHandlerService, ENHANCED_PRISMA, ZenStackModule } from '../../../src/adapters/nestjs';
import { createFixture, RPC_PREFIX, REST_PREFIX, USER_HEADER, type AdapterFixture } from '../support/fixture';

/** An interceptor reshaping whatever the route returns, as apps do for a common envelope. */
@Injectable()
class EnvelopeInterceptor implements NestInterceptor {
    intercept(_context: unknown, next: CallHandler) {
        return next.handle().pipe(map((data) => ({ envelope: data })));
    }
}

/** An exception filter rendering API errors in an app's own format. */
@Catch(HttpException)
class AppErrorFilter implements ExceptionFilter {
    catch(exception: HttpException, host: ArgumentsHost) {
        const res = host.switchToHttp().getResponse<{ status(code: number): { json(body: unknown): void } }>();
        res.status(exception.getStatus()).json({ filtered: exception.getStatus(), api: exception.getResponse() });
    }
}

async function createApp(f: AdapterFixture, bodyParser: boolean): Promise<INestApplication> {
    @Controller(RPC_PREFIX.slice(1))
    class RpcController {
        constructor(@Inject(ApiHandlerService) private readonly api: ApiHandlerService) {}

        @All('{*path}')
        handle() {
            return this.api.handleRequest({ ...f.common, handler: f.rpc, baseUrl: RPC_PREFIX });
        }
    }

    @Controller(REST_PREFIX.slice(1))
    class RestController {
        constructor(@Inject(ApiHandlerService) private readonly api: ApiHandlerService) {}

        @All('{*path}')
        handle() {
            return this.api.handleRequest({ ...f.common, handler: f.rest, baseUrl: REST_PREFIX });
        }
    }

    /** The service's result used the ways Nest allows: reshaped, caught, filtered, sent by hand. */
    @Controller('custom')
    class CustomController {
        constructor(@Inject(ApiHandlerService) private readonly api: ApiHandlerService) {}

        @All('enveloped/{*path}')
        @UseInterceptors(EnvelopeInterceptor)
        enveloped() {
            return this.api.handleRequest({ ...f.common, handler: f.rest, baseUrl: '/custom/enveloped' });
        }

        @All('caught/{*path}')
        async caught() {
            try {
                return await this.api.handleRequest({ ...f.common, handler: f.rpc, baseUrl: '/custom/caught' });
            } catch (err) {
                if (err instanceof HttpException) return { caught: err.getStatus(), api: err.getResponse() };
                throw err;
            }
        }

        @All('filtered/{*path}')
        @UseFilters(AppErrorFilter)
        filtered() {
            return this.api.handleRequest({ ...f.common, handler: f.rpc, baseUrl: '/custom/filtered' });
        }

        /** A custom handler refusing with Nest's own exception, as a wrapper around the API handler may. */
        @All('refused/{*path}')
        refused() {
            return this.api.handleRequest({ ...f.common, baseUrl: '/custom/refused', handler: async () => { throw new ForbiddenException('not yours'); } });
        }

        /** A custom handler answering text: Nest sends it as it sends any string. */
        @All('text/{*path}')
        text() {
            return this.api.handleRequest({ ...f.common, handler: async () => ({ status: 200, body: 'hello' }), baseUrl: '/custom/text' });
        }

        /** A custom handler answering a header no server could send (a line break in its value): a logged, generic 500. */
        @All('bad-header/{*path}')
        badHeader() {
            return this.api.handleRequest({ ...f.common, handler: async () => ({ status: 200, body: { ok: true }, headers: { 'x-a': 'a\nb' } }), baseUrl: '/custom/bad-header' });
        }

        /** A custom handler answering `null`: Nest sends no body. */
        @All('null/{*path}')
        nothing() {
            return this.api.handleRequest({ ...f.common, handler: async () => ({ status: 200, body: null }), baseUrl: '/custom/null' });
        }

        @All('by-hand/{*path}')
        async byHand(@Res() res: { json(body: unknown): void }) {
            res.json(await this.api.handleRequest({ ...f.common, handler: f.rest, baseUrl: '/custom/by-hand' }));
        }
    }

    /**
     * The app's client getter; with `refuseModel`, one choosing by model that refuses that model with Nest's exception;
     * with `needsModel`, one that only knows clients per model (2.x always passes the member accessed): called without
     * one it throws (`'throw'`) or has nothing to return (`'undefined'`).
     */
    const clientGetter = (input: { user?: string; refuseModel?: string; needsModel?: 'throw' | 'undefined' }) => {
        if (input.needsModel !== undefined) {
            return (model?: string | symbol) => {
                if (typeof model === 'string') return f.getPrisma(input.user);
                if (input.needsModel === 'throw') throw new Error('getEnhancedPrisma called without a model');
                return undefined;
            };
        }
        return input.refuseModel === undefined
            ? () => f.getPrisma(input.user)
            : (model?: string | symbol) => {
                  if (model === input.refuseModel) throw new ForbiddenException(`no ${input.refuseModel} for you`);
                  return f.getPrisma(input.user);
              };
    };

    /**
     * `ApiHandlerService` outside an HTTP server, as apps unit-test it: `REQUEST` a plain object with the parsed
     * body, the HTTP adapter a stand-in answering the URL and method. Answers what the service resolved or threw.
     */
    @Controller('__standalone')
    class StandaloneController {
        @Post()
        async run(@Body() input: { method: string; url: string; user?: string; body?: unknown; mock?: boolean; rest?: boolean; refuseModel?: string; needsModel?: 'throw' | 'undefined' }) {
            const httpAdapter = { getRequestUrl: () => input.url, getRequestMethod: () => input.method, getRequestHostname: () => 'localhost' };
            // `mock`: an event emitter with the request's fields, as node-mocks-http builds one (no stream to read)
            const request = input.mock
                ? Object.assign(new EventEmitter(), { method: input.method, url: input.url, headers: { 'content-type': 'application/json' }, body: input.body })
                : input.body === undefined
                  ? {}
                  : { body: input.body };
            const moduleRef = await Test.createTestingModule({
                imports: [ZenStackModule.registerAsync({ useFactory: () => ({ getEnhancedPrisma: clientGetter(input) }) })],
                providers: [{ provide: REQUEST, useValue: request }, { provide: HttpAdapterHost, useValue: { httpAdapter } }, ApiHandlerService],
            }).compile();
            const service = await moduleRef.resolve(ApiHandlerService);
            try {
                return { resolved: (await service.handleRequest({ ...f.common, handler: input.rest ? f.rest : f.rpc })) ?? null };
            } catch (err) {
                return err instanceof HttpException ? { threw: err.getStatus(), body: err.getResponse() } : { threw: String(err) };
            } finally {
                await moduleRef.close();
            }
        }
    }

    @Controller('__raw')
    class RawController {
        @Post(':model/:op')
        async run(@Param('model') model: string, @Param('op') op: string, @Body() args: unknown) {
            const result = (await f.schema.prisma[model][op](args)) ?? null;
            return { result: JSON.parse(JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))) };
        }

        @Get('errors')
        errors() {
            return f.errors;
        }
    }

    /** A service of the app using the exported client directly, as users do. */
    @Controller('mine')
    class MineController {
        constructor(@Inject(ENHANCED_PRISMA) private readonly prisma: { post: { findMany(): Promise<unknown[]> } }) {}

        @Get('posts')
        async posts() {
            return (await this.prisma.post.findMany()).length;
        }
    }

    @Module({
        imports: [
            ZenStackModule.registerAsync({
                // the per-request user: here from a header, in an app from the session/JWT (or nestjs-cls)
                useFactory: (req: IncomingMessage) => ({
                    getEnhancedPrisma: () => {
                        const user = req.headers[USER_HEADER] as string | undefined;
                        // the app's auth failing with Nest's own exception
                        if (user === 'nest-401') throw new UnauthorizedException('bad token');
                        return f.getPrisma(user);
                    },
                }),
                inject: [REQUEST],
            }),
        ],
        controllers: [RpcController, RestController, CustomController, StandaloneController, RawController, MineController],
        providers: [ApiHandlerService],
    })
    class AppModule {}

    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    const app = moduleRef.createNestApplication({ bodyParser, logger: false });
    await app.listen(0, '127.0.0.1');
    return app;
}

async function main(): Promise<void> {
    const f = await createFixture();
    const apps = { plain: await createApp(f, false), parsed: await createApp(f, true) };
    const port = (app: INestApplication) => (app.getHttpServer().address() as { port: number }).port;
    process.stdout.write(`READY ${JSON.stringify({ plain: port(apps.plain), parsed: port(apps.parsed) })}\n`);
    const stop = async () => {
        await apps.plain.close();
        await apps.parsed.close();
        await f.schema.cleanup();
        process.exit(0);
    };
    process.stdin.on('end', () => void stop());
    process.stdin.resume();
}

main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
});
