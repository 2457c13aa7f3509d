/**
 * CheckTx of any tx the app takes: decoded through the tx cache, then the Ethereum checks
 * (check-tx.ts) or the Cosmos ante checks on the committed state; a rejection becomes the ABCI
 * response (code, codespace, log), anything else is thrown. A refused tx leaves the tx cache: it
 * serves txs on their way to a block, and a client repeating refused txs must not fill it.
 */
import type { ResponseCheckTx } from '../../abci/types.js';
import type { CosmosChainEnv } from '../cosmos/cosmos-exec.js';
import { TxRejectedError } from '../errors.js';
import type { EvmRuntime } from '../execution/evm-runtime.js';
import type { DecodedCosmosTx, DecodedTx } from '../execution/tx-decode.js';
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
  let decoded: DecodedTx | undefined;
  try {
    const { config } = ctx;
    const d = (decoded = ctx.txCache.decode(tx, ctx.rt.txCommon));
    const res =
      d.kind === 'cosmos'
        ? await checkCosmos(d, ctx)
        : await checkEthTx(d, {
            state: ctx.rt.committed,
            baseFee: ctx.baseFee,
            minGasPrice: ctx.minGasPrice,
            maxBlockGas: config.maxGas < 0 ? undefined : BigInt(config.maxGas),
            allowUnprotectedTxs: ctx.allowUnprotectedTxs,
          });
    if (res.code !== 0) ctx.txCache.delete(d.cometHashHex);
    return res;
  } catch (e) {
    if (!(e instanceof TxRejectedError)) throw e;
    if (decoded !== undefined) ctx.txCache.delete(decoded.cometHashHex);
    const gasWanted = decoded?.kind === 'eth' ? Number(decoded.tx.gasLimit) : 0;
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
