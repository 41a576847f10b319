/** The default token under which `ZenStackModule` exports the enhanced Prisma client. */
export const ENHANCED_PRISMA = 'ENHANCED_PRISMA';

/** The token of the module options (internal). */
export const ZENSTACK_MODULE_OPTIONS = 'ZENSTACK_MODULE_OPTIONS';
