/**
 * eth_simulateV1 (as Anvil and geth serve it; Cosmos EVM lacks it): a sequence of simulated
 * blocks on top of a real one, each with optional block and state overrides and a list of calls.
 * State carries over from call to call and block to block; nothing reaches the chain.
 *
 *   per block: env (number +1, time +1, base fee 0 unless `validation`) ─ overrides ─ calls
 *   per call:  defaults (sender 0x0, nonce from state, gas = what the block has left) ─ run ─
 *              settle fees ─ result { status, returnData, gasUsed, logs, error? }
 * Errors use the spec's codes: 3 for reverts, -32015 for halts, -38xxx for invalid sequences.
 */
import { createBlock, type Block } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { Address, bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { applyOverrides, type StateOverrides } from '../../app/evm/overrides.js';
import type { OverlayState } from '../../app/evm/overlay-state.js';
import type { PooledEvm } from '../../app/evm/run-message.js';
import { keccak256 } from '../../crypto/keccak.js';
import { LATEST, type BlockRef } from './block-param.js';
import type { EthEnv } from './env.js';
import { EthRpcError, InvalidParamsError } from './errors.js';
import { EMPTY_REQUESTS_HASH, EMPTY_TRIE_ROOT, EMPTY_UNCLES_HASH, addressHex, type Json } from './format.js';
import { data, quantity } from './hex.js';
import { addressOf, bigOf, hashOf, objectOf, uint64Of, type Decoder } from './params.js';
import { stateHeight } from './resolve.js';
import { decodeRevertReason } from './revert-reason.js';
import { stateOverridesOf } from './state-overrides.js';
import { txArgsOf, type TxArgs } from './tx-args.js';

interface BlockOverrides {
  number?: bigint;
  time?: bigint;
  gasLimit?: bigint;
  feeRecipient?: Address;
  prevRandao?: Uint8Array;
  baseFeePerGas?: bigint;
}

interface SimBlock {
  blockOverrides: BlockOverrides;
  stateOverrides?: StateOverrides;
  calls: TxArgs[];
}

export interface SimulatePayload {
  blockStateCalls: SimBlock[];
  validation: boolean;
  returnFullTransactions: boolean;
}

const MAX_BLOCKS = 256;

const blockOverridesOf: Decoder<BlockOverrides> = (raw) => {
  const o = objectOf(raw, 'override.BlockOverrides');
  const out: BlockOverrides = {};
  if (o['number'] != null) out.number = uint64Of('BlockOverrides.number')(o['number']);
  if (o['time'] != null) out.time = uint64Of('BlockOverrides.time')(o['time']);
  if (o['gasLimit'] != null) out.gasLimit = uint64Of('BlockOverrides.gasLimit')(o['gasLimit']);
  if (o['feeRecipient'] != null) out.feeRecipient = addressOf('BlockOverrides.feeRecipient')(o['feeRecipient']);
  if (o['prevRandao'] != null) out.prevRandao = hashOf('BlockOverrides.prevRandao')(o['prevRandao']);
  if (o['baseFeePerGas'] != null) out.baseFeePerGas = bigOf('BlockOverrides.baseFeePerGas')(o['baseFeePerGas']);
  return out;
};

export const simulatePayloadOf: Decoder<SimulatePayload> = (raw) => {
  const o = objectOf(raw, 'simOpts');
  const blocks = o['blockStateCalls'];
  if (!Array.isArray(blocks)) throw new InvalidParamsError('blockStateCalls must be an array', 0);
  if (blocks.length > MAX_BLOCKS) throw new EthRpcError(-38026, `too many blocks (max ${MAX_BLOCKS})`);
  return {
    validation: o['validation'] === true,
    returnFullTransactions: o['returnFullTransactions'] === true,
    blockStateCalls: blocks.map((b): SimBlock => {
      const bo = objectOf(b, 'simBlock');
      return {
        blockOverrides: bo['blockOverrides'] != null ? blockOverridesOf(bo['blockOverrides']) : {},
        ...(bo['stateOverrides'] != null ? { stateOverrides: stateOverridesOf(bo['stateOverrides']) } : {}),
        calls: Array.isArray(bo['calls']) ? bo['calls'].map(txArgsOf) : [],
      };
    }),
  };
};

/** Handler for `eth_simulateV1`. */
export async function simulateV1(env: EthEnv, [payload, ref]: [SimulatePayload, BlockRef | undefined]): Promise<Json[]> {
  const height = await stateHeight(env, ref ?? LATEST);
  const calls = env.calls;
  const deadline = calls.deadline();
  return calls.executor.run({ height }, async (state, base, evm) => {
    const out: Json[] = [];
    let parent = { number: base.header.number, time: base.header.timestamp, hash: (await env.view.getBlock(height))?.hash ?? new Uint8Array(32) };
    for (const sb of payload.blockStateCalls) {
      const o = sb.blockOverrides;
      const number = o.number ?? parent.number + 1n;
      const time = o.time ?? parent.time + 1n;
      if (number <= parent.number) throw new EthRpcError(-38020, `block numbers must be in order: ${number} <= ${parent.number}`);
      if (time < parent.time) throw new EthRpcError(-38021, `block timestamps must be in order: ${time} < ${parent.time}`);
      const block = createBlock(
        {
          header: {
            number,
            timestamp: time,
            gasLimit: o.gasLimit ?? base.header.gasLimit,
            coinbase: o.feeRecipient ?? base.header.coinbase,
            baseFeePerGas: o.baseFeePerGas ?? (payload.validation ? env.view.nextBaseFee() : 0n),
            mixHash: o.prevRandao ?? new Uint8Array(32),
          },
        },
        { common: env.view.common, skipConsensusFormatValidation: true },
      );
      await applyOverrides(state, sb.stateOverrides);
      const result = await simulateBlock(env, state, block, sb.calls, payload, evm, parent.hash, deadline);
      out.push(result.json);
      parent = { number, time, hash: result.hash };
    }
    return out;
  });
}

async function simulateBlock(
  env: EthEnv,
  state: OverlayState,
  block: Block,
  calls: TxArgs[],
  payload: SimulatePayload,
  evm: PooledEvm,
  parentHash: Uint8Array,
  deadline: number,
): Promise<{ json: Json; hash: Uint8Array }> {
  const h = block.header;
  const hash = keccak256(RLP.encode([parentHash, bigIntToUnpaddedBytes(h.number), bigIntToUnpaddedBytes(h.timestamp), calls.length]));
  const results: Json[] = [];
  const txHashes: string[] = [];
  const txs: Json[] = [];
  let gasUsed = 0n;
  let logIndex = 0;
  for (let i = 0; i < calls.length; i++) {
    const args = calls[i]!;
    const from = args.from ?? new Address(new Uint8Array(20));
    const account = await state.getAccount(from);
    const stateNonce = account?.nonce ?? 0n;
    if (payload.validation && args.nonce !== undefined && args.nonce !== stateNonce) {
      throw new EthRpcError(
        args.nonce < stateNonce ? -38010 : -38011,
        `nonce ${args.nonce < stateNonce ? 'too low' : 'too high'}: next nonce ${stateNonce}, tx nonce ${args.nonce}`,
      );
    }
    const remaining = h.gasLimit - gasUsed;
    const gas = args.gas ?? remaining;
    if (gas > remaining) throw new EthRpcError(-38015, `block gas limit reached: ${gas} > ${remaining}`);
    const msg = env.calls.message({ ...args, from }, block, gas);
    const txHash = keccak256(RLP.encode([hash, i, from.bytes, bigIntToUnpaddedBytes(args.nonce ?? stateNonce)]));
    const r = await env.calls.exec(evm, state, block, msg, { settle: true }, deadline);
    gasUsed += r.gasUsed;
    const hashHex = data(txHash);
    txHashes.push(hashHex);
    const logs = r.logs.map(([address, topics, logData]) => ({
      address: data(address),
      topics: topics.map(data),
      data: data(logData),
      blockNumber: quantity(h.number),
      blockHash: data(hash),
      blockTimestamp: quantity(h.timestamp),
      transactionHash: hashHex,
      transactionIndex: quantity(i),
      logIndex: quantity(logIndex++),
      removed: false,
    }));
    const res: Json = {
      status: r.status === 'success' ? '0x1' : '0x0',
      returnData: data(r.returnValue),
      gasUsed: quantity(r.gasUsed),
      maxUsedGas: quantity(r.gasSpent),
      logs,
    };
    if (r.status === 'revert') {
      const reason = decodeRevertReason(r.returnValue);
      res['error'] = { code: 3, message: reason ? `execution reverted: ${reason}` : 'execution reverted', data: data(r.returnValue) };
    } else if (r.status === 'halt') {
      res['error'] = { code: -32015, message: `vm execution error: ${r.error}` };
    }
    results.push(res);
    if (payload.returnFullTransactions) {
      txs.push({
        hash: hashHex,
        from: addressHex(from),
        to: args.to ? addressHex(args.to) : null,
        nonce: quantity(args.nonce ?? stateNonce),
        gas: quantity(gas),
        gasPrice: quantity(msg.gasPrice),
        value: quantity(msg.value),
        input: data(msg.data),
        type: '0x2',
        blockHash: data(hash),
        blockNumber: quantity(h.number),
        transactionIndex: quantity(i),
        chainId: quantity(env.chainId),
      });
    }
  }
  const zero = `0x${'0'.repeat(64)}`;
  return {
    hash,
    json: {
      number: quantity(h.number),
      hash: data(hash),
      parentHash: data(parentHash),
      timestamp: quantity(h.timestamp),
      gasLimit: quantity(h.gasLimit),
      gasUsed: quantity(gasUsed),
      baseFeePerGas: quantity(h.baseFeePerGas ?? 0n),
      miner: addressHex(h.coinbase),
      nonce: '0x0000000000000000',
      sha3Uncles: EMPTY_UNCLES_HASH,
      logsBloom: data(new Uint8Array(256)),
      transactionsRoot: EMPTY_TRIE_ROOT,
      stateRoot: zero,
      receiptsRoot: EMPTY_TRIE_ROOT,
      difficulty: '0x0',
      extraData: '0x',
      mixHash: data(h.prevRandao),
      size: '0x0',
      uncles: [],
      withdrawals: [],
      withdrawalsRoot: EMPTY_TRIE_ROOT,
      blobGasUsed: '0x0',
      excessBlobGas: '0x0',
      parentBeaconBlockRoot: zero,
      requestsHash: EMPTY_REQUESTS_HASH,
      transactions: payload.returnFullTransactions ? txs : txHashes,
      calls: results,
    },
  };
}
