/**
 * State reads at a block: balance, nonce, code, storage and EIP-1186 proofs. Reads go through
 * the call executor's memoised readers, so they share their cache with eth_call.
 */
import { getMerkleStateProof } from '@ethereumjs/statemanager';
import { bytesToUnprefixedHex, type Address } from '@ethereumjs/util';
import { LATEST, type BlockRef } from './block-param.js';
import type { EthEnv } from './env.js';
import { data, quantity } from './hex.js';
import { stateHeight } from './resolve.js';

async function reader(env: EthEnv, ref: BlockRef | undefined) {
  return env.calls.executor.readerAt(await stateHeight(env, ref ?? LATEST));
}

/** Handler for `eth_getBalance`. */
export async function getBalance(env: EthEnv, [address, block]: [Address, BlockRef | undefined]): Promise<string> {
  const a = await (await reader(env, block)).account(address, bytesToUnprefixedHex(address.bytes));
  return quantity(a?.balance ?? 0n);
}

/**
 * Handler for `eth_getTransactionCount`. At `pending` it counts the sender's executable txs in
 * the mempool too, so wallets can send several txs in a row.
 */
export async function getTransactionCount(env: EthEnv, [address, block]: [Address, BlockRef | undefined]): Promise<string> {
  const a = await (await reader(env, block)).account(address, bytesToUnprefixedHex(address.bytes));
  let nonce = a?.nonce ?? 0n;
  if (block?.kind === 'tag' && block.tag === 'pending') {
    const pending = env.txpool.pendingNonce(address.toString());
    if (pending !== undefined && pending > nonce) nonce = pending;
  }
  return quantity(nonce);
}

/** Handler for `eth_getCode`. */
export async function getCode(env: EthEnv, [address, block]: [Address, BlockRef | undefined]): Promise<string> {
  return data(await (await reader(env, block)).code(address, bytesToUnprefixedHex(address.bytes)));
}

/** Handler for `eth_getStorageAt`: always a 32-byte word. */
export async function getStorageAt(env: EthEnv, [address, slot, block]: [Address, Uint8Array, BlockRef | undefined]): Promise<string> {
  const r = await reader(env, block);
  const v = await r.storage(address, bytesToUnprefixedHex(address.bytes), slot, bytesToUnprefixedHex(slot));
  const out = new Uint8Array(32);
  out.set(v, 32 - v.length);
  return data(out);
}

/** Handler for `eth_getProof`: account and storage proofs against the block's state root. */
export async function getProof(env: EthEnv, [address, keys, block]: [Address, Uint8Array[], BlockRef | undefined]): Promise<unknown> {
  const sm = await env.view.stateAt(await stateHeight(env, block ?? LATEST));
  const p = await getMerkleStateProof(sm, address, keys);
  return {
    address: address.toString(),
    accountProof: p.accountProof,
    balance: p.balance,
    codeHash: p.codeHash,
    nonce: p.nonce,
    storageHash: p.storageHash,
    storageProof: p.storageProof.map((s, i) => ({
      key: data(keys[i]!),
      value: quantity(BigInt(s.value === '0x' ? '0x0' : s.value)),
      proof: s.proof,
    })),
  };
}
