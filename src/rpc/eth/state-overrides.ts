/**
 * geth's `StateOverride` param (eth_call, eth_estimateGas, eth_simulateV1) decoded into the EVM
 * module's StateOverrides (src/app/evm/overrides.ts, which applies them to a call's overlay), with
 * Go's JSON decoder words for bad fields.
 */
import type { AccountOverride, StateOverrides } from '../../app/evm/overrides.js';
import { InvalidParamsError } from './errors.js';
import { decodeFixed } from './hex.js';
import { bigOf, bytesOf, hashOf, objectOf, ParamDecodeError, uint64Of, type Decoder } from './params.js';

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
