export { RPCApiHandler, type RPCApiHandlerOptions } from './rpc';
export { RestApiHandler, type RestApiHandlerOptions } from './rest';
