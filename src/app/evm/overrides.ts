/**
 * State overrides (geth's `StateOverride`, eth_call / eth_estimateGas / eth_simulateV1): per
 * address a new balance, nonce or code, and either `state` (the whole storage replaced) or
 * `stateDiff` (single slots changed). Applied to the call's overlay before it runs, never to
 * the chain. The RPC decodes them (src/rpc/eth/state-overrides.ts).
 */
import { Account, Address, KECCAK256_NULL } from '@ethereumjs/util';
import { keccak256 } from '../../crypto/keccak.js';
import type { OverlayState } from './overlay-state.js';

export interface AccountOverride {
  balance?: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  state?: Map<string, Uint8Array>;
  stateDiff?: Map<string, Uint8Array>;
}

/** Keyed by unprefixed lower-case hex address; slots by unprefixed hex key. */
export type StateOverrides = Map<string, AccountOverride>;

/** Writes the overrides into `state` (outside any checkpoint: they are the call's pre-state). */
export async function applyOverrides(state: OverlayState, overrides: StateOverrides | undefined): Promise<void> {
  if (!overrides) return;
  for (const [hex, ov] of overrides) {
    const address = new Address(Buffer.from(hex, 'hex'));
    const acct = (await state.getAccount(address)) ?? new Account();
    if (ov.balance !== undefined) acct.balance = ov.balance;
    if (ov.nonce !== undefined) acct.nonce = ov.nonce;
    if (ov.code !== undefined) acct.codeHash = ov.code.length === 0 ? KECCAK256_NULL : keccak256(ov.code);
    await state.putAccount(address, acct);
    if (ov.code !== undefined) await state.putCode(address, ov.code);
    if (ov.state !== undefined) await state.clearStorage(address);
    for (const slots of [ov.state, ov.stateDiff]) {
      if (!slots) continue;
      for (const [k, v] of slots) await state.putStorage(address, Buffer.from(k, 'hex'), stripZeros(v));
    }
  }
  state.beginTx();
}

/** Storage values are kept minimal (as the EVM writes them): no leading zero bytes. */
function stripZeros(v: Uint8Array): Uint8Array {
  let i = 0;
  while (i < v.length && v[i] === 0) i++;
  return v.subarray(i);
}
