import type { FactoryProvider, ModuleMetadata, Provider } from '@nestjs/common';
import type { CommonAdapterOptions } from '../shared/options';

/** What the `registerAsync` factory returns. */
export interface ZenStackModuleOptions {
    /**
     * Returns the enhanced client for the current request, e.g. `enhance(prisma, { user: cls.get('user') })`.
     * Called on every access to the exported client (with the accessed member, e.g. the model name).
     */
    getEnhancedPrisma: (model?: string | symbol) => unknown;
}

/** Options of `ZenStackModule.registerAsync` (as in `@zenstackhq/server/nestjs`). */
export interface ZenStackModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
    /** Register the module globally. */
    global?: boolean;
    /** The token to export the enhanced client under (default `ENHANCED_PRISMA`). */
    exportToken?: string;
    /** Creates the module options; may inject providers (`inject`), including `REQUEST`. */
    useFactory: (...args: never[]) => Promise<ZenStackModuleOptions> | ZenStackModuleOptions;
    /** Providers to inject into `useFactory`. */
    inject?: FactoryProvider['inject'];
    /** Extra providers made available to `useFactory`. */
    extraProviders?: Provider[];
}

/** Options of `ApiHandlerService.handleRequest`. */
export interface ApiHandlerOptions extends CommonAdapterOptions {
    /**
     * The route prefix of the controller serving the API (e.g. `/api/model`), stripped from the URL path
     * before the handler sees it. Default: none (the API is served from the root).
     */
    baseUrl?: string;
}
