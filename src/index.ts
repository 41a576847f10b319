export * from './api';
export type { AdapterBaseOptions, HandleRequestFn, LoggerConfig, LoggerMethod, RequestContext, Response } from './types';
export { withTransactionCleanup, type DriverAdapterFactoryLike, type TransactionCleanupOptions } from './driver/transaction-cleanup';
