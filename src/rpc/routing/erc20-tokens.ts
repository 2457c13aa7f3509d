/**
 * The ERC20s an EVM chain lists in /v2/fungible/assets: those registered in `[routing]
 * erc20-tokens` (app.toml), then those seen on chain, i.e. contracts that emitted an ERC20
 * `Transfer` log in a block committed since the routing API started (at most `MAX_SEEN_ERC20`).
 * Their decimals, symbol and name are read as eth_call reads them (erc20-read.ts: bounded by the
 * gas cap and the EVM timeout) on the latest state and kept per contract code, so a listing costs
 * one account read per token once they are known.
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, KECCAK256_NULL, toChecksumAddress } from '@ethereumjs/util';
import type { EvmReceipt } from '../../app/views/evm-view.js';
import { bytesEqual, fromHex, toHex } from '../../crypto/encoding.js';
import { RoutingConfigError } from './errors.js';
import { Erc20ReadError, isErc20TransferLog, readErc20Metadata, type ContractCalls, type Erc20Metadata } from './erc20-read.js';

/** Contracts remembered from their Transfer logs; later ones are not listed (registered ones always are). */
export const MAX_SEEN_ERC20 = 1000;

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** `[routing] erc20-tokens` checked, lower-cased and without repeats; a non-address throws `RoutingConfigError`. */
export function parseErc20Tokens(list: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of list) {
    const a = String(raw).trim();
    if (!ADDRESS_RE.test(a)) throw new RoutingConfigError('erc20-tokens', `"${raw}" is not a contract address (0x and 40 hex digits)`);
    const lower = a.toLowerCase();
    if (!out.includes(lower)) out.push(lower);
  }
  return out;
}

export interface ListedErc20 {
  /** EIP-55 checksummed. */
  address: string;
  meta: Erc20Metadata;
}

export class Erc20Tokens {
  private readonly registered: readonly string[];
  private readonly seen = new Set<string>();
  /**
   * Per contract: what the reads gave, and its code hash then; `meta` undefined: they ran into
   * `evm-timeout`, and each listing would wait that long again. Any other failed read is tried
   * again (a proxy may be set up later).
   */
  private readonly reads = new Map<string, { codeHash: string; meta: Erc20Metadata | undefined }>();

  /** `registered`: the configured addresses (checked by `parseErc20Tokens`); `calls`: the reads; `latestState`: a copy of the latest state. */
  constructor(
    registered: readonly string[],
    private readonly calls: ContractCalls,
    private readonly latestState: () => Promise<MerkleStateManager>,
  ) {
    this.registered = parseErc20Tokens(registered);
  }

  /** Remembers the emitters of ERC20 Transfer logs in a committed block's receipts. */
  observe(receipts: readonly EvmReceipt[]): void {
    for (const r of receipts) {
      for (const log of r.logs) {
        if (this.seen.size >= MAX_SEEN_ERC20) return;
        if (isErc20TransferLog(log.topics, log.data)) this.seen.add(log.address.toString().toLowerCase());
      }
    }
  }

  /** How many contracts were seen emitting Transfer logs (capped at MAX_SEEN_ERC20). */
  get seenCount(): number {
    return this.seen.size;
  }

  /**
   * At start: a registered address that holds code which does not answer `decimals()` is a
   * mistake in the config and throws `RoutingConfigError`. One without code yet is accepted (a
   * token deployed later at a known address is listed once it is there).
   */
  async check(): Promise<void> {
    if (this.registered.length === 0) return;
    const state = await this.latestState();
    for (const a of this.registered) {
      const addr = new Address(fromHex(a));
      if ((await state.getCode(addr)).length === 0) continue;
      try {
        await readErc20Metadata(this.calls, addr.bytes);
      } catch (err) {
        if (!(err instanceof Erc20ReadError)) throw err;
        throw new RoutingConfigError('erc20-tokens', `${toChecksumAddress(a)} is not an ERC20 contract: ${err.message}`);
      }
    }
  }

  /**
   * The registered tokens, then the seen ones, that answer the ERC20 reads on the latest state.
   * A contract whose `decimals()` fails (or no contract yet) is left out rather than listed
   * without decimals: no amount of it could be shown; it is tried again on the next listing,
   * unless its reads timed out. A token read once (or timed out) is read again only when its code
   * changed (a devnet `setCode`).
   */
  async list(): Promise<ListedErc20[]> {
    const addresses = [...new Set([...this.registered, ...this.seen])];
    if (addresses.length === 0) return [];
    const state = await this.latestState();
    const out: ListedErc20[] = [];
    for (const a of addresses) {
      const addr = new Address(fromHex(a));
      const account = await state.getAccount(addr);
      if (!account || bytesEqual(account.codeHash, KECCAK256_NULL)) continue;
      const codeHash = toHex(account.codeHash);
      const cached = this.reads.get(a);
      let meta = cached?.codeHash === codeHash ? cached.meta : undefined;
      if (cached?.codeHash !== codeHash) {
        try {
          meta = await readErc20Metadata(this.calls, addr.bytes);
          this.reads.set(a, { codeHash, meta });
        } catch (err) {
          if (!(err instanceof Erc20ReadError)) throw err;
          if (err.timedOut) this.reads.set(a, { codeHash, meta: undefined });
          else this.reads.delete(a);
        }
      }
      if (meta) out.push({ address: toChecksumAddress(a), meta });
    }
    return out;
  }
}
