/**
 * ERC20 reads as eth_call makes them (the chain's call service, reached through `ContractCalls`)
 * on the latest state, so nothing reaches the chain and `[json-rpc] gas-cap` and `evm-timeout`
 * bound them: `balanceOf(holder)` and `decimals()` for the balances endpoint; `decimals()`,
 * `symbol()` and `name()` for the asset list. Also what an ERC20 `Transfer` log looks like, to spot
 * the tokens a chain's blocks move.
 */
import { Address } from '@ethereumjs/util';
import { bytesEqual, concatBytes } from '../../crypto/encoding.js';
import { keccak256 } from '../../crypto/keccak.js';
import { DenomBalanceError } from './errors.js';

const BALANCE_OF = Uint8Array.from([0x70, 0xa0, 0x82, 0x31]);
const DECIMALS = Uint8Array.from([0x31, 0x3c, 0xe5, 0x67]);
const SYMBOL = Uint8Array.from([0x95, 0xd8, 0x9b, 0x41]);
const NAME = Uint8Array.from([0x06, 0xfd, 0xde, 0x03]);
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

/** A read-only call's outcome: its return data, or why it failed (geth's text: a revert, a halt, the timeout). */
export type ContractCallResult = { returnValue: Uint8Array } | { error: string; timedOut?: boolean };

/**
 * Read-only calls to one contract on a chain's latest state, as eth_call makes them (from the zero
 * address, gas from `[json-rpc] gas-cap`), with one `evm-timeout` for the whole batch. Undefined
 * when the address holds no code.
 */
export interface ContractCalls {
  readContract(to: Uint8Array, inputs: readonly Uint8Array[]): Promise<ContractCallResult[] | undefined>;
}

/** A read that failed; `message` says which call and why. */
export class Erc20ReadError extends Error {
  override name = 'Erc20ReadError';
  constructor(
    message: string,
    /** It ran into `evm-timeout`. */
    readonly timedOut = false,
  ) {
    super(message);
  }
}

function word(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/** The return data of a call; a failed call or one that answers less than a word throws. */
function output(res: ContractCallResult, to: Address, what: string): Uint8Array {
  if ('error' in res) throw new Erc20ReadError(`${what} failed on ${to.toString()}: ${res.error}`, res.timedOut === true);
  const out = res.returnValue;
  if (out.length < 32) throw new Erc20ReadError(`${to.toString()} is not an ERC20 contract (${what} returned ${out.length} bytes)`);
  return out;
}

/** The calls' outcomes, in order; no code at `to` throws. */
async function readAll(calls: ContractCalls, to: Address, inputs: readonly Uint8Array[]): Promise<ContractCallResult[]> {
  const res = await calls.readContract(to.bytes, inputs);
  if (res === undefined) throw new Erc20ReadError(`no contract at ${to.toString()}`);
  return res;
}

function decimalsOf(res: ContractCallResult, to: Address): number {
  const decimals = word(output(res, to, 'decimals').subarray(0, 32));
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

function stringOf(res: ContractCallResult, to: Address, what: string): string | null {
  try {
    return decodeErc20String(output(res, to, what)) ?? null;
  } catch (err) {
    if (err instanceof Erc20ReadError) return null;
    throw err;
  }
}

/** Reads `holder`'s balance and the token's decimals. */
export async function readErc20(calls: ContractCalls, contract: Uint8Array, holder: Uint8Array, denom: string): Promise<Erc20Balance> {
  const to = new Address(contract);
  try {
    const holderWord = concatBytes(new Uint8Array(12), holder);
    const [balanceRes, decimalsRes] = await readAll(calls, to, [concatBytes(BALANCE_OF, holderWord), DECIMALS]);
    const balance = word(output(balanceRes!, to, 'balanceOf').subarray(0, 32));
    return { balance, decimals: decimalsOf(decimalsRes!, to) };
  } catch (err) {
    if (err instanceof Erc20ReadError) throw new DenomBalanceError(denom, err.message);
    throw err;
  }
}

/**
 * Reads a token's `decimals()`, `symbol()` and `name()`. Throws `Erc20ReadError` when there is no
 * contract or `decimals()` fails: without decimals no amount of the token can be shown, so it is
 * not an ERC20 here. `symbol` and `name` are optional in ERC20: one that fails is null.
 */
export async function readErc20Metadata(calls: ContractCalls, contract: Uint8Array): Promise<Erc20Metadata> {
  const to = new Address(contract);
  const [decimals, symbol, name] = await readAll(calls, to, [DECIMALS, SYMBOL, NAME]);
  return { decimals: decimalsOf(decimals!, to), symbol: stringOf(symbol!, to, 'symbol'), name: stringOf(name!, to, 'name') };
}
