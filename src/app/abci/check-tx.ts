/**
 * Mempool admission of an Ethereum tx (CheckTx New and Recheck): stateless checks first (replay
 * protection, signature, intrinsic gas, gas limit, fees), then against the committed state (nonce,
 * balance, EOA). Throws TxRejectedError; on success returns the Chainlet-internal fields the mempool
 * orders by.
 */
import { KECCAK256_NULL } from '@ethereumjs/util';
import { CodeTypeOK, type ResponseCheckTx } from '../../abci/types.js';
import type { CommittedReader } from '../stores/committed-state.js';
import { effectiveTip, maxFeePerGas } from '../execution/fee-market.js';
import { recoverSender, type DecodedEthTx } from '../execution/tx-decode.js';
import {
  feeBelowBaseFee,
  feeBelowMinGasPrice,
  gasLimitExceedsBlock,
  insufficientFunds,
  intrinsicGasTooLow,
  invalidNonce,
  senderNotEoa,
  unprotectedTx,
} from '../execution/tx-rejections.js';

export interface CheckTxContext {
  /** Committed state (never the state of a block being executed). */
  state: CommittedReader;
  /** Base fee of the next block. */
  baseFee: bigint;
  minGasPrice: bigint;
  /** Consensus block max gas; undefined = no limit. */
  maxBlockGas: bigint | undefined;
  allowUnprotectedTxs: boolean;
}

const DELEGATION_PREFIX = [0xef, 0x01, 0x00];
const EMPTY = new Uint8Array(0);

export async function checkEthTx(d: DecodedEthTx, ctx: CheckTxContext): Promise<ResponseCheckTx> {
  const { tx } = d;
  if (!d.protected && !ctx.allowUnprotectedTxs) throw unprotectedTx();
  const sender = recoverSender(d);

  // ---- stateless ----
  const minGas = tx.getMinimumGasLimit();
  if (tx.gasLimit < minGas) throw intrinsicGasTooLow(tx.gasLimit, minGas);
  if (ctx.maxBlockGas !== undefined && tx.gasLimit > ctx.maxBlockGas) throw gasLimitExceedsBlock(tx.gasLimit, ctx.maxBlockGas);
  const maxFee = maxFeePerGas(tx);
  if (maxFee < ctx.minGasPrice) throw feeBelowMinGasPrice(maxFee, ctx.minGasPrice);
  if (maxFee < ctx.baseFee) throw feeBelowBaseFee(maxFee, ctx.baseFee);

  // ---- against the committed state ----
  const account = await ctx.state.getAccount(sender);
  const stateNonce = account?.nonce ?? 0n;
  if (tx.nonce < stateNonce) throw invalidNonce(tx.nonce, stateNonce);
  const balance = account?.balance ?? 0n;
  const cost = tx.gasLimit * maxFee + tx.value;
  if (balance < cost) throw insufficientFunds(balance, cost);
  if (account !== undefined && !equal(account.codeHash, KECCAK256_NULL)) {
    const code = await ctx.state.getCode(sender);
    if (!DELEGATION_PREFIX.every((b, i) => code[i] === b)) throw senderNotEoa(d.senderHex!);
  }

  return {
    code: CodeTypeOK,
    data: EMPTY,
    log: '',
    info: '',
    gasWanted: Number(tx.gasLimit),
    gasUsed: 0,
    events: [],
    codespace: '',
    sender: d.senderHex,
    nonce: tx.nonce,
    priority: effectiveTip(tx, ctx.baseFee),
    maxFeePerGas: maxFee,
    senderStateNonce: stateNonce,
    ethHash: d.ethHash,
  };
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
