// What the documentation's TypeScript blocks take from the application: its Prisma client, ZenStack's
// `enhance`, session helpers and a `user` its authentication put on the request (see doc-snippets.test.ts).
type SessionUser = { id: number; role?: string };

declare const prisma: import('@prisma/client').PrismaClient;
declare function enhance<DbClient extends object>(prisma: DbClient, context?: { user?: SessionUser | null }): DbClient;
declare function getSessionUser(...request: unknown[]): SessionUser;
declare function getUser(request: Request): Promise<SessionUser>;
declare function userFromRequest(request: unknown): SessionUser;
declare function getUserSession(event: unknown): Promise<{ user: SessionUser }>;
declare const PrismaService: typeof import('@prisma/client').PrismaClient;
type PrismaService = import('@prisma/client').PrismaClient;
declare const Bun: { serve(options: { fetch: (request: Request) => Response | Promise<Response> }): unknown };

declare namespace Express {
    interface Request {
        user?: SessionUser;
    }
}

declare namespace App {
    interface Locals {
        user?: SessionUser;
    }
}

// stand-ins for packages the blocks import that are not installed here
declare module 'nestjs-cls' {
    export class ClsService {
        get(key: string): SessionUser | undefined;
        set(key: string, value: unknown): void;
    }
    export const ClsModule: { forRoot(options: { global?: boolean; middleware?: { mount?: boolean; setup?: (cls: ClsService, req: import('express').Request) => void } }): import('@nestjs/common').DynamicModule };
}

declare module '@tanstack/react-router' {
    export function createFileRoute(path: string): (options: { server?: { handlers?: Record<string, (ctx: { request: Request; params: Record<string, string> }) => unknown> } }) => unknown;
}

declare module '@nestjs/platform-fastify' {
    import type { HttpServer, INestApplication } from '@nestjs/common';
    export interface NestFastifyApplication extends INestApplication {
        getHttpAdapter(): HttpServer<import('fastify').FastifyRequest, import('fastify').FastifyReply, import('fastify').FastifyInstance>;
    }
    export class FastifyAdapter {}
}

// names the fragments continue from: the Express app of the blocks before, a Nest module, a getPrisma
declare const app: import('express').Express;
declare class AppModule {}
declare function getPrisma(request: unknown): Promise<object>;
