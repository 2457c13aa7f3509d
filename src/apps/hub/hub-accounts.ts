/**
 * The hub chain's accounts (x/auth + x/bank of one native denom): balance and sequence per 20-byte
 * address, with the calls the Cosmos tx pipeline and queries make of a state (get/put account,
 * checkpoints). The app hash commits to them through the bank and acc IAVL stores (hub-stores.ts).
 */
import { Address, createAccount, type Account } from '@ethereumjs/util';

export type AccountMap = Map<string, { balance: bigint; sequence: bigint }>;

export class HubAccounts {
  private stack: AccountMap[] = [];

  constructor(private map: AccountMap = new Map()) {}

  static hex(a: Address): string {
    return Buffer.from(a.bytes).toString('hex');
  }

  async getAccount(a: Address): Promise<Account | undefined> {
    const e = this.map.get(HubAccounts.hex(a));
    return e && createAccount({ nonce: e.sequence, balance: e.balance });
  }

  async putAccount(a: Address, acc: Account | undefined): Promise<void> {
    if (acc === undefined) this.map.delete(HubAccounts.hex(a));
    else this.map.set(HubAccounts.hex(a), { balance: acc.balance, sequence: acc.nonce });
  }

  async getCode(): Promise<Uint8Array> {
    return new Uint8Array(0);
  }

  async getStorage(): Promise<Uint8Array> {
    return new Uint8Array(0);
  }

  async checkpoint(): Promise<void> {
    this.stack.push(new Map(this.map));
  }

  async commit(): Promise<void> {
    this.stack.pop();
  }

  async revert(): Promise<void> {
    const prev = this.stack.pop();
    if (prev) this.map = prev;
  }

  entries(): AccountMap {
    return this.map;
  }

  copy(): HubAccounts {
    return new HubAccounts(new Map(this.map));
  }
}
