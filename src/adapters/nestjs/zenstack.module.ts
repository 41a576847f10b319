import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { ENHANCED_PRISMA, ZENSTACK_MODULE_OPTIONS } from './constants';
import { createEnhancedPrismaProxy } from './enhanced-prisma';
import type { ZenStackModuleAsyncOptions, ZenStackModuleOptions } from './interfaces';

/**
 * Provides the enhanced Prisma client (token `ENHANCED_PRISMA` by default) to a NestJS application:
 * `ZenStackModule.registerAsync({ useFactory: (prisma: PrismaService, cls: ClsService) => ({ getEnhancedPrisma: () => enhance(prisma, { user: cls.get('user') }) }), inject: [PrismaService, ClsService] })`.
 */
@Module({})
export class ZenStackModule {
    static registerAsync(options: ZenStackModuleAsyncOptions): DynamicModule {
        if (typeof options?.useFactory !== 'function') {
            throw new TypeError('ZenStackModule.registerAsync: "useFactory" is required and must return { getEnhancedPrisma }');
        }
        const token = options.exportToken ?? ENHANCED_PRISMA;
        const providers: Provider[] = [
            { provide: ZENSTACK_MODULE_OPTIONS, useFactory: options.useFactory as (...args: unknown[]) => unknown, inject: options.inject ?? [] },
            {
                provide: token,
                useFactory: (moduleOptions: ZenStackModuleOptions) => {
                    if (typeof moduleOptions?.getEnhancedPrisma !== 'function') {
                        throw new TypeError('ZenStackModule: the factory must return { getEnhancedPrisma: () => enhancedClient }');
                    }
                    return createEnhancedPrismaProxy(moduleOptions.getEnhancedPrisma);
                },
                inject: [ZENSTACK_MODULE_OPTIONS],
            },
            ...(options.extraProviders ?? []),
        ];
        return { module: ZenStackModule, global: options.global, imports: options.imports, providers, exports: [token] };
    }
}
