/**
 * ERC20 reads through the EVM, as static calls on an independent copy of the latest state, so
 * nothing reaches the chain: `balanceOf(holder)` and `decimals()` for the balances endpoint;
 * `decimals()`, `symbol()` and `name()` for the asset list. Also what an ERC20 `Transfer` log
 * looks like, to spot the tokens a chain's blocks move.
 */
import type { Common } from '@ethereumjs/common';
import { createEVM, type EVM } from '@ethereumjs/evm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address } from '@ethereumjs/util';
import { bytesEqual, concatBytes } from '../../crypto/encoding.js';
import { keccak256 } from '../../crypto/keccak.js';
import { DenomBalanceError } from './errors.js';

const BALANCE_OF = Uint8Array.from([0x70, 0xa0, 0x82, 0x31]);
const DECIMALS = Uint8Array.from([0x31, 0x3c, 0xe5, 0x67]);
const SYMBOL = Uint8Array.from([0x95, 0xd8, 0x9b, 0x41]);
const NAME = Uint8Array.from([0x06, 0xfd, 0xde, 0x03]);
/** Ample for any honest view function; bounds a hostile one. */
const CALL_GAS = 2_000_000n;
/** Longer names and symbols are not metadata anyone displays. */
const MAX_STRING_BYTES = 256;

/** Topic 0 of `Transfer(address indexed from, address indexed to, uint256 value)`. */
export const ERC20_TRANSFER_TOPIC: Uint8Array = keccak256(new TextEncoder().encode('Transfer(address,address,uint256)'));

/**
 * An ERC20 `Transfer` log: topic 0, both addresses indexed (3 topics), the value as 32 bytes of
 * data. (ERC721's `Transfer` has the same topic 0 but 4 topics and no data.)
 */
export function isErc20TransferLog(topics: readonly Uint8Array[], data: Uint8Array): boolean {
  return topics.length === 3 && data.length === 32 && bytesEqual(topics[0]!, ERC20_TRANSFER_TOPIC);
}

export interface Erc20Balance {
  balance: bigint;
  decimals: number;
}

export interface Erc20Metadata {
  decimals: number;
  /** null when `symbol()` / `name()` fail or answer no string (both are optional in ERC20). */
  symbol: string | null;
  name: string | null;
}

/** A read that failed; `message` says which call and why. */
export class Erc20ReadError extends Error {
  override name = 'Erc20ReadError';
}

function word(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/** The return data of a static call; a failed call or one that answers less than a word throws. */
async function call(evm: EVM, to: Address, data: Uint8Array, what: string): Promise<Uint8Array> {
  const res = await evm.runCall({ to, data, gasLimit: CALL_GAS, isStatic: true });
  const err = res.execResult.exceptionError;
  if (err) throw new Erc20ReadError(`${what} failed on ${to.toString()}: ${err.error}`);
  const out = res.execResult.returnValue;
  if (out.length < 32) throw new Erc20ReadError(`${to.toString()} is not an ERC20 contract (${what} returned ${out.length} bytes)`);
  return out;
}

async function evmAt(common: Common, state: MerkleStateManager, to: Address): Promise<EVM> {
  const code = await state.getCode(to);
  if (code.length === 0) throw new Erc20ReadError(`no contract at ${to.toString()}`);
  return createEVM({ common, stateManager: state });
}

async function decimalsOf(evm: EVM, to: Address): Promise<number> {
  const decimals = word((await call(evm, to, DECIMALS, 'decimals')).subarray(0, 32));
  if (decimals > 255n) throw new Erc20ReadError(`${to.toString()} reports ${decimals} decimals`);
  return Number(decimals);
}

/**
 * A string return value: ABI `string` (offset, length, bytes), or the `bytes32` some early tokens
 * answer (MKR), NUL-padded. Undefined when it is neither, too long or empty.
 */
export function decodeErc20String(out: Uint8Array): string | undefined {
  let bytes: Uint8Array | undefined;
  if (out.length >= 64) {
    const offset = word(out.subarray(0, 32));
    if (offset <= BigInt(out.length - 32)) {
      const at = Number(offset);
      const len = word(out.subarray(at, at + 32));
      if (len <= BigInt(MAX_STRING_BYTES) && at + 32 + Number(len) <= out.length) bytes = out.subarray(at + 32, at + 32 + Number(len));
    }
  } else if (out.length === 32) {
    let end = 32;
    while (end > 0 && out[end - 1] === 0) end--;
    bytes = out.subarray(0, end);
  }
  if (bytes === undefined) return undefined;
  const s = new TextDecoder().decode(bytes).replace(/\0/g, '').trim();
  return s === '' ? undefined : s;
}

async function stringOf(evm: EVM, to: Address, selector: Uint8Array, what: string): Promise<string | null> {
  try {
    return decodeErc20String(await call(evm, to, selector, what)) ?? null;
  } catch (err) {
    if (err instanceof Erc20ReadError) return null;
    throw err;
  }
}

/** Reads `holder`'s balance and the token's decimals from `state` (a copy; it is written to). */
export async function readErc20(common: Common, state: MerkleStateManager, contract: Uint8Array, holder: Uint8Array, denom: string): Promise<Erc20Balance> {
  const to = new Address(contract);
  try {
    const evm = await evmAt(common, state, to);
    const holderWord = concatBytes(new Uint8Array(12), holder);
    const balance = word((await call(evm, to, concatBytes(BALANCE_OF, holderWord), 'balanceOf')).subarray(0, 32));
    const decimals = await decimalsOf(evm, to);
    return { balance, decimals };
  } catch (err) {
    if (err instanceof Erc20ReadError) throw new DenomBalanceError(denom, err.message);
    throw err;
  }
}

/**
 * Reads a token's `decimals()`, `symbol()` and `name()` from `state` (a copy; it is written to).
 * Throws `Erc20ReadError` when there is no contract or `decimals()` fails: without decimals no
 * amount of the token can be shown, so it is not an ERC20 here. `symbol` and `name` are optional
 * in ERC20: one that fails is null.
 */
export async function readErc20Metadata(common: Common, state: MerkleStateManager, contract: Uint8Array): Promise<Erc20Metadata> {
  const to = new Address(contract);
  const evm = await evmAt(common, state, to);
  const decimals = await decimalsOf(evm, to);
  return { decimals, symbol: await stringOf(evm, to, SYMBOL, 'symbol'), name: await stringOf(evm, to, NAME, 'name') };
}
