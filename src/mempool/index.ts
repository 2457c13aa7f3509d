/** The mempool's public surface. */
export { Mempool, type MempoolOptions } from './mempool.js';
export {
  DEFAULT_MEMPOOL_CONFIG,
  NON_EVM_SENDER_PREFIX,
  isEvmSender,
  type MempoolConfig,
  type MempoolContent,
  type MempoolTx,
} from './types.js';
export {
  CODE_REPLACEMENT_UNDERPRICED,
  MEMPOOL_CODESPACE,
  MempoolError,
  MempoolFullError,
  MempoolNotLockedError,
  REPLACEMENT_UNDERPRICED_LOG,
  TxInCacheError,
  TxTooLargeError,
} from './errors.js';
export { PRICE_BUMP_PERCENT } from './replacement.js';
export { protoTxSize } from './reap.js';
