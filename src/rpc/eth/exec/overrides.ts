/**
 * State overrides (geth's `StateOverride`, eth_call / eth_estimateGas / eth_simulateV1): per
 * address a new balance, nonce or code, and either `state` (the whole storage replaced) or
 * `stateDiff` (single slots changed). Applied to the call's overlay before it runs, never to
 * the chain.
 */
import { Account, Address, KECCAK256_NULL } from '@ethereumjs/util';
import { keccak256 } from '../../../crypto/keccak.js';
import { InvalidParamsError } from '../errors.js';
import { bigOf, bytesOf, hashOf, objectOf, ParamDecodeError, uint64Of, type Decoder } from '../params.js';
import { decodeFixed } from '../hex.js';
import type { OverlayState } from './overlay-state.js';

export interface AccountOverride {
  balance?: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  state?: Map<string, Uint8Array>;
  stateDiff?: Map<string, Uint8Array>;
}

export type StateOverrides = Map<string, AccountOverride>;

const S = 'override.OverrideAccount';

function slotsOf(raw: unknown, field: string): Map<string, Uint8Array> {
  const o = objectOf(raw, 'map[common.Hash]common.Hash');
  const m = new Map<string, Uint8Array>();
  for (const [k, v] of Object.entries(o)) {
    let key: Uint8Array;
    try {
      key = decodeFixed(k, 32, 'common.Hash');
    } catch (e) {
      throw new ParamDecodeError(`invalid storage key ${JSON.stringify(k)} in ${field}: ${(e as Error).message}`);
    }
    m.set(Buffer.from(key).toString('hex'), hashOf(`${S}.${field}`)(v));
  }
  return m;
}

export const stateOverridesOf: Decoder<StateOverrides> = (raw) => {
  const o = objectOf(raw, 'override.StateOverride');
  const out: StateOverrides = new Map();
  for (const [addr, value] of Object.entries(o)) {
    let a: Uint8Array;
    try {
      a = decodeFixed(addr, 20, 'common.Address');
    } catch (e) {
      throw new ParamDecodeError(`invalid address ${JSON.stringify(addr)}: ${(e as Error).message}`);
    }
    const ov = objectOf(value, S);
    if (ov['movePrecompileToAddress'] !== undefined && ov['movePrecompileToAddress'] !== null) {
      throw new InvalidParamsError('movePrecompileToAddress is not supported');
    }
    const entry: AccountOverride = {};
    if (ov['balance'] != null) entry.balance = bigOf(`${S}.balance`)(ov['balance']);
    if (ov['nonce'] != null) entry.nonce = uint64Of(`${S}.nonce`)(ov['nonce']);
    if (ov['code'] != null) entry.code = bytesOf(`${S}.code`)(ov['code']);
    if (ov['state'] != null) entry.state = slotsOf(ov['state'], 'state');
    if (ov['stateDiff'] != null) entry.stateDiff = slotsOf(ov['stateDiff'], 'stateDiff');
    const hex = Buffer.from(a).toString('hex');
    if (entry.state && entry.stateDiff) throw new InvalidParamsError(`account 0x${hex} has both 'state' and 'stateDiff'`);
    out.set(hex, entry);
  }
  return out;
};

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
