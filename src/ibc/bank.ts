/**
 * Bank of every denom, as ICS-20 moves coins: the chain's native denom lives in its own accounts
 * (the EVM balance, or the hub's account map), every other denom (vouchers) in the IBC store's bank
 * keys. Sends, mints and burns emit x/bank's events (coin_spent, coin_received, transfer, coinbase, burn).
 */
import type { AbciEvent } from '../abci/types.js';
import { CosmosTxError, SdkCode } from '../sdk/errors.js';
import { toBech32 } from '../crypto/bech32.js';
import { hostKeys } from './keys.js';
import type { IbcStore } from './ibc-store.js';

export interface Coin {
  denom: string;
  amount: bigint;
}

/** The native denom's balances, owned by the app. */
export interface NativeBalances {
  getBalance(address: Uint8Array): Promise<bigint>;
  setBalance(address: Uint8Array, amount: bigint): Promise<void>;
}

const hexOf = (a: Uint8Array) => Buffer.from(a).toString('hex');

export class MultiDenomBank {
  constructor(
    private readonly store: IbcStore,
    private readonly native: NativeBalances,
    readonly nativeDenom: string,
    private readonly prefix: string,
  ) {}

  async balance(address: Uint8Array, denom: string): Promise<bigint> {
    if (denom === this.nativeDenom) return this.native.getBalance(address);
    return storedBalance(this.store, address, denom);
  }

  async send(from: Uint8Array, to: Uint8Array, coin: Coin, events: AbciEvent[]): Promise<void> {
    await this.sub(from, coin);
    await this.add(to, coin);
    const amount = `${coin.amount}${coin.denom}`;
    events.push(ev('coin_spent', ['spender', this.bech(from)], ['amount', amount]));
    events.push(ev('coin_received', ['receiver', this.bech(to)], ['amount', amount]));
    events.push(ev('transfer', ['recipient', this.bech(to)], ['sender', this.bech(from)], ['amount', amount]));
  }

  /** Mints to a module account (x/bank MintCoins). */
  async mint(module: Uint8Array, coin: Coin, events: AbciEvent[]): Promise<void> {
    await this.add(module, coin);
    this.setSupply(coin.denom, this.supply(coin.denom) + coin.amount);
    const amount = `${coin.amount}${coin.denom}`;
    events.push(ev('coin_received', ['receiver', this.bech(module)], ['amount', amount]));
    events.push(ev('coinbase', ['minter', this.bech(module)], ['amount', amount]));
  }

  /** Burns from a module account (x/bank BurnCoins). */
  async burn(module: Uint8Array, coin: Coin, events: AbciEvent[]): Promise<void> {
    await this.sub(module, coin);
    this.setSupply(coin.denom, this.supply(coin.denom) - coin.amount);
    const amount = `${coin.amount}${coin.denom}`;
    events.push(ev('coin_spent', ['spender', this.bech(module)], ['amount', amount]));
    events.push(ev('burn', ['burner', this.bech(module)], ['amount', amount]));
  }

  supply(denom: string): bigint {
    const v = this.store.getText(hostKeys.supply(denom));
    return v === undefined ? 0n : BigInt(v);
  }

  private setSupply(denom: string, amount: bigint): void {
    if (denom === this.nativeDenom) return; // the native supply is the app's own
    if (amount === 0n) this.store.delete(hostKeys.supply(denom));
    else this.store.set(hostKeys.supply(denom), amount.toString());
  }

  private async sub(address: Uint8Array, coin: Coin): Promise<void> {
    const have = await this.balance(address, coin.denom);
    if (have < coin.amount)
      throw new CosmosTxError(
        SdkCode.InsufficientFunds,
        `spendable balance ${have}${coin.denom} is smaller than ${coin.amount}${coin.denom}: insufficient funds`,
      );
    await this.set(address, coin.denom, have - coin.amount);
  }

  private async add(address: Uint8Array, coin: Coin): Promise<void> {
    await this.set(address, coin.denom, (await this.balance(address, coin.denom)) + coin.amount);
  }

  private async set(address: Uint8Array, denom: string, amount: bigint): Promise<void> {
    if (denom === this.nativeDenom) return this.native.setBalance(address, amount);
    const key = hostKeys.balance(hexOf(address), denom);
    if (amount === 0n) this.store.delete(key);
    else this.store.set(key, amount.toString());
  }

  private bech(a: Uint8Array): string {
    return toBech32(this.prefix, a);
  }
}

export function storedBalance(store: IbcStore, address: Uint8Array, denom: string): bigint {
  const v = store.getText(hostKeys.balance(hexOf(address), denom));
  return v === undefined ? 0n : BigInt(v);
}

/** Every non-native balance of an address, in denom order. */
export function storedBalances(store: IbcStore, address: Uint8Array): Coin[] {
  const prefix = hostKeys.balancePrefix(hexOf(address));
  return store.entries(prefix).map(([k, v]) => ({ denom: k.slice(prefix.length), amount: BigInt(new TextDecoder().decode(v)) }));
}

/** The supply of one denom this store tracks (0 for one it never minted). */
export function storedSupply(store: IbcStore, denom: string): bigint {
  const v = store.getText(hostKeys.supply(denom));
  return v === undefined ? 0n : BigInt(v);
}

/** The supply of every denom this store tracks (what ICS-20 minted and did not burn), by denom. */
export function storedSupplies(store: IbcStore): Coin[] {
  const prefix = hostKeys.supply('');
  return store.entries(prefix).map(([k, v]) => ({ denom: k.slice(prefix.length), amount: BigInt(new TextDecoder().decode(v)) }));
}

export function ev(type: string, ...attrs: [string, string][]): AbciEvent {
  return { type, attributes: attrs.map(([key, value]) => ({ key, value, index: true })) };
}

/** A voucher's balance and its origin's base denom; undefined for a hash this chain never received. */
export function voucherOf(store: IbcStore, address: Uint8Array, denom: string): { amount: bigint; base: string } | undefined {
  const trace = store.getJson<{ base: string }>(hostKeys.denom(denom.slice(4).toUpperCase()));
  return trace && { amount: storedBalance(store, address, denom), base: trace.base };
}
