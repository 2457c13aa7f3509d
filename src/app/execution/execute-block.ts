/**
 * Runs a block's txs through ethereumjs `runTx` inside ONE journal checkpoint, so state caches are
 * flushed into the trie once per block rather than once per tx (the caller reads the state root
 * afterwards). Per tx it keeps only the few fields the results, events and receipts need; the
 * RunTxResult objects are dropped at once.
 *
 *   for each tx: sender (cached) → block gas check → plain transfer (plain-transfer.ts) or runTx
 *                → ExecTxResult + events + ExecutedTx
 *
 * A tx that fails validation (nonce, funds, fee…) gets a non-zero code and changes nothing; a tx that
 * reverts in the EVM is still code 0, with receipt status 0 and `ethereumTxFailed`, as in Cosmos EVM.
 */
import { createBlock, type Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { EVMError } from '@ethereumjs/evm';
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { createContractAddress, type Address } from '@ethereumjs/util';
import { CodeTypeOK, type AbciEvent, type ExecTxResult } from '../../abci/types.js';
import { isIcs20Precompile, type Ics20Context } from '../../ibc/ics20-precompile.js';
import type { ExecutedTx, RawLog } from '../stores/block-record.js';
import { orBloom } from '../views/evm-block.js';
import type { TxRejectedError } from '../errors.js';
import { effectiveGasPrice } from './fee-market.js';
import { recoverSender, type DecodedEthTx, type DecodedTx } from './tx-decode.js';
import { applyPlainTransfer } from './plain-transfer.js';
import { sharedTxCommon } from '../chain-common.js';
import { toPrefixedHex as hex } from '../../crypto/encoding.js';
import { ethereumTxEvents } from './tx-events.js';
import { ethereumTxResultData } from '../../codec/cosmos-evm/tx-msg-data.js';
import { blockGasExhausted, rejectionFromRunTxError } from './tx-rejections.js';
import type { Checkpointing, CosmosChainEnv, CosmosState } from '../cosmos/cosmos-exec.js';

export interface BlockEnv {
  height: number;
  /** CometBFT block hash (used in log JSON). */
  hash: Uint8Array;
  timestamp: bigint;
  coinbase: Address;
  gasLimit: bigint;
  baseFee: bigint;
}

export interface BlockExecution {
  txResults: ExecTxResult[];
  /** Executed (code 0) txs, in order. */
  executed: ExecutedTx[];
  gasUsed: bigint;
  bloom: Uint8Array;
}

const EMPTY = new Uint8Array(0);
const ZERO32 = new Uint8Array(32);

/** A tx of the block: decoded, or refused at decoding. */
export type BlockTx = DecodedTx | TxRejectedError;

/**
 * A committed block run again for tracing (src/app/trace): the same steps, with chosen EVM txs run
 * by the tracer's `runTx` instead of the block's own (no plain-transfer shortcut for them).
 */
export interface BlockReplayHooks {
  /** Runs EVM tx `index` of the block under a tracer; undefined: the block's own way. */
  runEvmTx?(index: number, item: DecodedEthTx, tx: TypedTransaction, sender: Address, block: Block, blockGasUsed: bigint): Promise<RunTxResult> | undefined;
  /** Index of the last tx to run (what comes after it is not needed). */
  lastIndex?: number;
}

/**
 * `plainTransfers: false` runs every tx through `runTx`, plain transfers included (the tests compare
 * both ways).
 */
export async function executeBlock(
  vm: VM,
  common: Common,
  env: BlockEnv,
  txs: readonly BlockTx[],
  cosmos: Omit<CosmosChainEnv, 'height' | 'baseFee'>,
  ics20?: { ctx: Ics20Context | undefined },
  plainTransfers = true,
  replay?: BlockReplayHooks,
): Promise<BlockExecution> {
  const block = createBlock(
    {
      header: {
        number: BigInt(env.height),
        timestamp: env.timestamp,
        coinbase: env.coinbase,
        gasLimit: env.gasLimit,
        baseFeePerGas: env.baseFee,
        mixHash: ZERO32, // prevRandao
      },
    },
    // The shared view: the header neither copies the Common nor re-merges its parameters (~0.1 ms a block).
    { common: sharedTxCommon(common), skipConsensusFormatValidation: true },
  );
  const blockHashHex = hex(env.hash);
  const txResults: ExecTxResult[] = new Array(txs.length);
  const executed: ExecutedTx[] = [];
  const bloom = new Uint8Array(256);
  let gasUsed = 0n;
  let logCount = 0;

  // Only a tx sent straight to the ICS-20 precompile can write IBC state: a contract's call is
  // refused before any write, so one context (no caller) serves every other tx of the block.
  const ibc = ics20 && cosmos.ibc;
  const indirect: Ics20Context | undefined = ibc && {
    store: ibc.store,
    chainId: cosmos.chainId,
    bech32Prefix: cosmos.bech32Prefix,
    denom: cosmos.denom,
    height: env.height,
    timeNs: ibc.timeNs,
    caller: undefined,
    events: [],
  };

  await vm.evm.journal.checkpoint();
  try {
    // A replay may end its pass early (a traced tx stopped inside: it sets lastIndex), so read it each time.
    for (let i = 0; i < txs.length && i <= (replay?.lastIndex ?? Infinity); i++) {
      const item = txs[i]!;
      if (!('kind' in item)) {
        txResults[i] = rejected(item, 0);
        continue;
      }
      if (item.kind === 'cosmos') {
        // A Cosmos tx moves balances and the sequence on the same state; it is no EVM tx (no receipt).
        const chainEnv = { ...cosmos, height: env.height, baseFee: env.baseFee };
        const { runCosmosTx } = await import('../cosmos/cosmos-exec.js');
        txResults[i] = (await runCosmosTx(item, chainEnv, vm.stateManager as unknown as CosmosState & Checkpointing, 'deliver')).result;
        continue;
      }
      const { tx } = item;
      const gasWanted = Number(tx.gasLimit);
      let sender: Address;
      let result: TxOutcome | undefined;
      // A direct call's IBC writes live and die with the tx; its events join the tx's.
      const direct = indirect !== undefined && isIcs20Precompile(tx.to?.bytes);
      const ibcEvents: AbciEvent[] | undefined = direct ? [] : undefined;
      let checkpointed = false;
      const depth = checkpointDepth(vm);
      try {
        sender = recoverSender(item);
        if (gasUsed + tx.gasLimit > env.gasLimit) throw blockGasExhausted(tx.gasLimit, env.gasLimit - gasUsed);
        if (indirect) {
          if (direct) {
            ibc!.store.checkpoint();
            checkpointed = true;
          }
          ics20!.ctx = direct ? { ...indirect, caller: sender.bytes, value: tx.value, events: ibcEvents! } : indirect;
        }
        const traced = replay?.runEvmTx?.(i, item, tx, sender, block, gasUsed);
        // A call to the ICS-20 precompile is no plain transfer (applyPlainTransfer refuses precompiles).
        const plainGas = traced === undefined && plainTransfers ? await applyPlainTransfer(vm, tx, sender, env.coinbase, env.baseFee) : undefined;
        if (traced !== undefined) result = await traced;
        else result = plainGas === undefined ? await runTx(vm, { tx, block, blockGasUsed: gasUsed, skipHardForkValidation: true }) : plainOutcome(plainGas);
      } catch (e) {
        if (checkpointed) ibc!.store.revert();
        // runTx reverts its own checkpoint when it throws, but not one it opened inside it (ethereumjs
        // 10's layer for EIP-7702 authorisations): left open, the trie stays checkpointed and the
        // block's writes never reach the db (every later read: "Missing node in DB").
        while (checkpointDepth(vm) > depth) await vm.evm.journal.revert();
        txResults[i] = rejected(rejectionFromRunTxError(e), gasWanted);
        continue;
      } finally {
        if (ics20) ics20.ctx = undefined;
      }
      if (checkpointed) {
        if (result.execResult.exceptionError === undefined) ibc!.store.commit();
        else {
          ibc!.store.revert();
          ibcEvents!.length = 0;
        }
      }
      // ---- copy what we keep out of the RunTxResult, then let it go ----
      const txGasUsed = result.totalGasSpent;
      const exec = result.execResult;
      const failed = exec.exceptionError === undefined ? undefined : vmErrorText(exec.exceptionError);
      const logs = (exec.logs ?? []) as RawLog[];
      if (logs.length > 0) orBloom(bloom, result.bloom!.bitvector);
      const returnValue = exec.returnValue;
      const gasRefund = result.gasRefund;
      result = undefined;

      gasUsed += txGasUsed;
      const to = tx.to;
      const contractAddress = to === undefined ? createContractAddress(sender, tx.nonce) : undefined;
      const txIndex = executed.length;
      const ethHashHex = hex(item.ethHash);
      executed.push({
        bytes: item.bytes,
        ethHash: item.ethHash,
        sender,
        type: tx.type,
        to,
        status: failed === undefined ? 1 : 0,
        gasUsed: txGasUsed,
        effectiveGasPrice: effectiveGasPrice(tx, env.baseFee),
        contractAddress,
        logs,
        decoded: tx,
      });
      txResults[i] = {
        code: CodeTypeOK,
        data: ethereumTxResultData({
          hash: ethHashHex,
          logs: logs.map((l, j) => ({
            address: hex(l[0]),
            topics: l[1].map((t) => hex(t)),
            data: l[2],
            blockNumber: BigInt(env.height),
            txHash: ethHashHex,
            txIndex,
            blockHash: blockHashHex,
            index: logCount + j,
          })),
          ret: returnValue,
          vmError: failed ?? '',
          gasUsed: txGasUsed,
          maxUsedGas: txGasUsed + gasRefund,
          blockHash: env.hash,
          blockTimestamp: env.timestamp,
        }),
        log: '',
        info: '',
        gasWanted,
        gasUsed: Number(txGasUsed),
        events: ethereumTxEvents({
          value: tx.value,
          ethHashHex,
          txIndex,
          gasUsed: txGasUsed,
          cometHashHex: item.cometHashHex,
          recipient: (to ?? contractAddress)?.toString() ?? '',
          failed,
          senderHex: item.senderHex!,
          type: tx.type,
          logs,
          firstLogIndex: logCount,
          blockNumber: env.height,
          blockHashHex,
        }),
        codespace: '',
      };
      if (ibcEvents && ibcEvents.length > 0) txResults[i]!.events.push(...ibcEvents);
      logCount += logs.length;
    }
    await vm.evm.journal.commit();
  } catch (e) {
    // Not a tx failure (those are caught above): undo the whole block.
    await vm.evm.journal.revert();
    throw e;
  } finally {
    // A checkpoint and a commit each add an entry to the journal's diff, which only the cleanup at
    // the end of a runTx clears: a block of plain transfers (no runTx) left its two entries (three
    // Sets, a Map and arrays each) for ever, a sixth of the heap a height kept. Nothing of the
    // journal outlives a block: warm sets and touched accounts are per tx.
    vm.evm.journal.cleanJournal();
  }
  return { txResults, executed, gasUsed, bloom };
}

/** The state's open checkpoints (a state without the count: none to unwind). */
function checkpointDepth(vm: VM): number {
  return (vm.stateManager as { checkpointDepth?: number }).checkpointDepth ?? 0;
}

/** What the block keeps of a tx's run: a RunTxResult, or the outcome of a plain transfer. */
type TxOutcome = Pick<RunTxResult, 'totalGasSpent' | 'gasRefund'> & {
  execResult: Pick<RunTxResult['execResult'], 'exceptionError' | 'logs' | 'returnValue'>;
  bloom?: RunTxResult['bloom'];
};

function plainOutcome(gas: bigint): TxOutcome {
  return { totalGasSpent: gas, gasRefund: 0n, execResult: { exceptionError: undefined, logs: undefined, returnValue: EMPTY } };
}

function rejected(err: TxRejectedError, gasWanted: number): ExecTxResult {
  return { code: err.code, data: EMPTY, log: err.log, info: '', gasWanted, gasUsed: 0, events: [], codespace: err.codespace };
}

/** geth's wording of EVM halts (ethereumjs says "revert" where geth says "execution reverted"). */
function vmErrorText(err: EVMError): string {
  return err.error === EVMError.errorMessages.REVERT ? 'execution reverted' : err.error;
}
