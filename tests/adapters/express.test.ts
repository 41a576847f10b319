import express from 'express';
import request from 'supertest';
import { ZenStackMiddleware } from '../../src/adapters/express';
import { RPC_PREFIX, REST_PREFIX, USER_HEADER } from './support/fixture';
import { describeAdapter } from './support/scenario';
import { supertestHarness } from './support/supertest';

describeAdapter('express adapter (body read by the adapter)', async (f) => {
    const app = express();
    app.use(RPC_PREFIX, ZenStackMiddleware({ ...f.common, handler: f.rpc, getPrisma: (req) => f.getPrisma(req.header(USER_HEADER)) }));
    app.use(REST_PREFIX, ZenStackMiddleware({ ...f.common, handler: f.rest, getPrisma: (req) => f.getPrisma(req.header(USER_HEADER)) }));
    return supertestHarness(app);
});

describeAdapter(
    'express adapter behind an app-wide express.json()',
    async (f) => {
        const app = express();
        app.use(express.json({ limit: f.common.bodyLimit }));
        const rpc = ZenStackMiddleware({ ...f.common, handler: f.rpc, getPrisma: (req) => f.getPrisma(req.header(USER_HEADER)) });
        const rest = ZenStackMiddleware({ ...f.common, handler: f.rest, getPrisma: (req) => f.getPrisma(req.header(USER_HEADER)) });
        app.use(RPC_PREFIX, rpc, rpc.errorHandler);
        app.use(REST_PREFIX, rest, rest.errorHandler);
        return supertestHarness(app);
    },
    {},
    ({ fixture, seed }) => {
        it('sendResponse: false leaves the response in res.locals for the next middleware', async () => {
            const f = fixture();
            const { alice } = await seed();
            const app = express();
            app.use(
                '/api',
                ZenStackMiddleware({ ...f.common, sendResponse: false, getPrisma: (req) => f.getPrisma(req.header(USER_HEADER)) }),
                (_req: express.Request, res: express.Response) => {
                    res.status(res.locals.status).json({ wrapped: res.locals.body });
                },
            );
            const res = await request(app).post('/api/post/create').set(USER_HEADER, String(alice)).send({ data: { title: 'kept', authorId: alice } });
            expect(res.status).toBe(201);
            expect(res.body.wrapped.data.title).toBe('kept');
        });

        it('with sendResponse: false, the error handler leaves a body-parser refusal in res.locals too, and calls next()', async () => {
            const f = fixture();
            const api = ZenStackMiddleware({ ...f.common, sendResponse: false, getPrisma: () => f.getPrisma(undefined) });
            const app = express();
            app.use(express.json());
            app.use('/api', api, api.errorHandler, (_req: express.Request, res: express.Response) => {
                res.status(res.locals.status).json({ envelope: res.locals.body });
            });
            const res = await request(app).post('/api/post/create').set('content-type', 'application/json').send('{bad');
            expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { envelope: { error: { message: 'invalid JSON in request body' } } } });
        });

        it('the error handler leaves unrelated errors to the application', async () => {
            const f = fixture();
            const api = ZenStackMiddleware({ ...f.common, getPrisma: () => f.getPrisma(undefined) });
            const app = express();
            app.use('/api', (_req: express.Request, _res: express.Response, next: express.NextFunction) => next(Object.assign(new Error('teapot'), { status: 418 })), api, api.errorHandler);
            app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
                res.status(418).send(`app saw ${err.message}`);
            });
            const res = await request(app).get('/api/post/findMany');
            expect(res.status).toBe(418);
            expect(res.text).toBe('app saw teapot');
        });
    },
);
