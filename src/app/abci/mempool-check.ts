/**
 * CheckTx of any tx the app takes: decoded through the tx cache, then the Ethereum checks
 * (check-tx.ts) or the Cosmos ante checks on the committed state; a rejection becomes the ABCI
 * response (code, codespace, log), anything else is thrown.
 */
import type { ResponseCheckTx } from '../../abci/types.js';
import type { CosmosChainEnv } from '../cosmos/cosmos-exec.js';
import { TxRejectedError } from '../errors.js';
import type { EvmRuntime } from '../execution/evm-runtime.js';
import type { DecodedCosmosTx } from '../execution/tx-decode.js';
import type { AppChainConfig } from './app-config.js';
import { checkEthTx } from './check-tx.js';
import type { DecodedTxCache } from './tx-cache.js';

export interface MempoolCheckContext {
  rt: EvmRuntime;
  txCache: DecodedTxCache;
  config: AppChainConfig;
  /** Base fee of the next block. */
  baseFee: bigint;
  minGasPrice: bigint;
  allowUnprotectedTxs: boolean;
  /** The chain as the next block's Cosmos txs see it. */
  cosmosEnv(): CosmosChainEnv;
}

export async function checkAnyTx(tx: Uint8Array, ctx: MempoolCheckContext): Promise<ResponseCheckTx> {
  let gasWanted = 0;
  try {
    const { config } = ctx;
    const d = ctx.txCache.decode(tx, ctx.rt.txCommon);
    if (d.kind === 'cosmos') return await checkCosmos(d, ctx);
    gasWanted = Number(d.tx.gasLimit);
    return await checkEthTx(d, {
      state: ctx.rt.committed,
      baseFee: ctx.baseFee,
      minGasPrice: ctx.minGasPrice,
      maxBlockGas: config.maxGas < 0 ? undefined : BigInt(config.maxGas),
      allowUnprotectedTxs: ctx.allowUnprotectedTxs,
    });
  } catch (e) {
    if (!(e instanceof TxRejectedError)) throw e;
    return { code: e.code, data: new Uint8Array(0), log: e.log, info: '', gasWanted, gasUsed: 0, events: [], codespace: e.codespace };
  }
}

/** CheckTx of a Cosmos tx: the ante checks on the committed state; the mempool orders it by sequence. */
async function checkCosmos(d: DecodedCosmosTx, ctx: MempoolCheckContext): Promise<ResponseCheckTx> {
  const committed = ctx.rt.committed;
  // Cosmos tx execution (and its codecs) loads with the first Cosmos tx.
  const { checkCosmosTx } = await import('../cosmos/cosmos-exec.js');
  return checkCosmosTx(d, ctx.cosmosEnv(), {
    getAccount: (a) => committed.getAccount(a),
    putAccount: async () => undefined,
  });
}
