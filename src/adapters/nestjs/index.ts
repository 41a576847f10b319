export { ZenStackModule } from './zenstack.module';
export { ApiHandlerService } from './api-handler.service';
export { ENHANCED_PRISMA } from './constants';
export type { ZenStackModuleOptions, ZenStackModuleAsyncOptions, ApiHandlerOptions } from './interfaces';
