import { RPCApiHandler } from './handler';

export { RPCApiHandler };
export type { RPCApiHandlerOptions } from './handler';
export type { RpcError } from './errors';
export type { RpcSuccessBody } from './output';
export { OPERATIONS, type OperationSpec } from './operations';

export default RPCApiHandler;
