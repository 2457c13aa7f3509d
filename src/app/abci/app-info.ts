/** The EVM app's ABCI Info: what it is and the last block it committed. */
import type { ResponseInfo } from '../../abci/types.js';
import type { AppMeta } from '../stores/app-store.js';
import { packageVersion } from './app-version.js';
import { metaAppHash, metaHex } from './evm-stores.js';

export const APP_INFO_DATA = 'chainlet';
export const APP_VERSION = 1;

export function appInfo(m: AppMeta | undefined): ResponseInfo {
  return {
    data: APP_INFO_DATA,
    version: packageVersion(),
    appVersion: APP_VERSION,
    lastBlockHeight: m?.lastHeight ?? 0,
    lastBlockAppHash: m !== undefined && m.lastHeight > 0 ? metaAppHash(m, metaHex(m.lastAppHash)) : new Uint8Array(0),
  };
}
