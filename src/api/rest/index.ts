import { RestApiHandler } from './handler';

export { RestApiHandler };
/** `Options` is the name 2.x exports from `@zenstackhq/server/api/rest`. */
export type { RestApiHandlerOptions, RestApiHandlerOptions as Options } from './options';
export default RestApiHandler;
