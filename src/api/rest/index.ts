import { RestApiHandler } from './handler';

export { RestApiHandler };
export type { RestApiHandlerOptions } from './options';
export default RestApiHandler;
