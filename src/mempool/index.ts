/** The mempool's public surface. */
export { Mempool, type MempoolOptions } from './mempool.js';
export { DEFAULT_MEMPOOL_CONFIG, NON_EVM_SENDER_PREFIX, isEvmSender, type MempoolConfig, type MempoolContent, type MempoolTx } from './types.js';
export {
  ACCOUNT_LIMIT_EXCEEDED_LOG,
  CODE_ACCOUNT_LIMIT_EXCEEDED,
  CODE_REPLACEMENT_UNDERPRICED,
  CODE_TXPOOL_FULL,
  MEMPOOL_CODESPACE,
  MempoolError,
  MempoolFullError,
  MempoolNotLockedError,
  REPLACEMENT_UNDERPRICED_LOG,
  TxInCacheError,
  TxTooLargeError,
  TXPOOL_FULL_LOG,
} from './errors.js';
export { PRICE_BUMP_PERCENT } from './replacement.js';
export { protoTxSize } from './reap.js';
