/**
 * The one ethereumjs `Common` of a chain, built once from the genesis and passed to every tx, block,
 * EVM and VM constructor. It carries:
 * - the native secp256k1 (libsecp256k1 through the `secp256k1` package) as `customCrypto.ecrecover`,
 *   ~20× faster than the pure-JS default for sender recovery and the ecrecover precompile;
 * - the WebAssembly keccak-256 (crypto/keccak.ts) as `customCrypto.keccak256`, which the tries, tx
 *   hashes, blooms and the SHA3 opcode take from the Common (7–9× faster than the JS default);
 * - the parameters of every package already merged, so decoding a tx with `TX_DECODE_OPTS` skips the
 *   per-tx JSON deep copy of the tx parameters that ethereumjs does otherwise.
 */
import { secp256k1 } from '../crypto/secp256k1-native.js';
import { Common, Mainnet, createCustomCommon } from '@ethereumjs/common';
import { paramsBlock } from '@ethereumjs/block';
import { paramsTx } from '@ethereumjs/tx';
import { paramsVM } from '@ethereumjs/vm';
import { paramsEVM } from '@ethereumjs/evm';
import { keccak256 } from '../crypto/keccak.js';
import type { SupportedHardfork } from './stores/genesis-state.js';

/** ethereumjs `ecrecover` contract: 64-byte uncompressed public key (no 0x04 prefix); throws on a bad signature. */
export function nativeEcrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  const recovery = v === 0n || v === 1n ? v : chainId === undefined ? v - 27n : v - (chainId * 2n + 35n);
  if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value');
  if (r.length > 32 || s.length > 32) throw new Error('Invalid signature length');
  const sig = new Uint8Array(64);
  sig.set(r, 32 - r.length);
  sig.set(s, 64 - s.length);
  // Into one reused buffer, then the 64 key bytes copied out: a fresh 65-byte output would be an
  // ArrayBuffer of its own (off the V8 heap), kept alive by the key's view for as long as the tx.
  secp256k1.ecdsaRecover(sig, Number(recovery), msgHash, false, recovered);
  return recovered.slice(1);
}

const recovered = new Uint8Array(65);

export interface ChainCommonOpts {
  chainId: bigint;
  hardfork: SupportedHardfork;
}

export function createChainCommon(opts: ChainCommonOpts): Common {
  // Every package's parameters given to the constructor, merged: each later `updateParams` would
  // deep-copy what it merges and rebuild the whole parameter cache (≈ 1 ms each at start), and so
  // would a first one after the constructor has built it. The VMs and EVMs built on this Common are
  // given `params: {}` so they do not merge them again.
  const common = createCustomCommon({ chainId: Number(opts.chainId), name: 'chainlet' }, Mainnet, {
    hardfork: opts.hardfork,
    params: mergeParams(paramsTx, paramsBlock, paramsEVM, paramsVM),
    customCrypto: { ecrecover: nativeEcrecover, keccak256 },
  });
  // Upstream rebuilds the parameter cache even when `params` is empty, as every VM and EVM
  // constructor calls it (≈ 0.25 ms and 100 KB each at start, once per pooled call EVM). The cache
  // depends only on the parameters, the hardfork and the EIPs, so with nothing to merge it is kept.
  // A method, not a closure over `common`: `Common.copy()` copies own properties onto the copy.
  common.updateParams = skipEmptyUpdate;
  return common;
}

function skipEmptyUpdate(this: Common, params: ParamsDict): void {
  if (Object.keys(params).length > 0) Common.prototype.updateParams.call(this, params);
}

type ParamsDict = Parameters<Common['updateParams']>[0];

/**
 * The dicts merged EIP by EIP, later ones winning, as successive `updateParams` calls merge them.
 * Into null-prototype objects, which V8 keeps as hash tables from the start: spread into object
 * literals, EIP 1's 113 parameters made a hidden class and a descriptor array per property added
 * (≈ 280 KB allocated at every start, the start's largest single allocation).
 */
export function mergeParams(...dicts: ParamsDict[]): ParamsDict {
  const out: ParamsDict = Object.create(null);
  for (const dict of dicts) {
    for (const eip in dict) {
      const params = dict[eip]!;
      const into = (out[eip] ??= Object.create(null));
      for (const name in params) into[name] = params[name]!;
    }
  }
  return out;
}

/**
 * Options for `createTxFromRLP(bytes, { common, ...TX_DECODE_OPTS })`: the parameters are already in
 * the chain Common, so an empty dict avoids re-merging (and deep-copying) them per tx.
 */
export const TX_DECODE_OPTS = Object.freeze({ params: {} as Record<string, never> });

/**
 * A view of `common` for decoding txs on the hot path. ethereumjs copies the Common given to each tx
 * and rebuilds its parameter cache (~40 µs per tx, a tenth of executing an ETH transfer); txs only
 * read their Common, so this view hands itself out as the copy and skips the rebuild. Everything
 * else (hardfork, parameters, custom crypto) is read from `common` through the prototype.
 */
export function sharedTxCommon(common: Common): Common {
  // One view a Common: the block executor asks for one each height, and a view made from property
  // descriptors is a dictionary-mode object of its own (≈ 5 µs).
  let view = views.get(common);
  if (view === undefined) {
    const v: Common = Object.create(common, {
      copy: { value: () => v },
      updateParams: { value: () => v },
    });
    views.set(common, (view = v));
  }
  return view;
}

const views = new WeakMap<Common, Common>();
