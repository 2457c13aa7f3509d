/**
 * The hub's multistore: its accounts as the Cosmos SDK's x/bank and x/auth stores keep them, and
 * the IBC module's store, each an IAVL tree (src/ibc/app-stores.ts); the app hash is their commit
 * info root.
 *
 *   bank  0x02 ‖ len(addr) ‖ addr ‖ denom → the amount as decimal text (zero balances deleted)
 *   acc   0x01 ‖ addr → BaseAccount { address (bech32), sequence } (no public key or account number:
 *         those live in the auth registry, outside the app hash)
 *   ibc   the IBC store's ICS-24 paths (and the transfer app's denoms, escrows and vouchers)
 */
import { BaseAccount } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import type { AbstractLevel } from 'abstract-level';
import { toBech32 } from '../../crypto/bech32.js';
import { AppStores } from '../../ibc/app-stores.js';
import { IBC_STORE_KEY } from '../../ibc/keys.js';
import { levelNodeDb, type IavlSublevel } from '../../store/iavl/index.js';
import type { AccountMap } from './hub-accounts.js';

export const BANK_STORE = 'bank';
export const ACC_STORE = 'acc';

type Db = AbstractLevel<string | Uint8Array | Buffer, string, Uint8Array>;

const utf8 = new TextEncoder();

/** The hub's trees on sublevels of its db (in memory or on a home). */
export function openHubStores(db: Db): Promise<AppStores> {
  const sub = (name: string) => db.sublevel<Uint8Array, Uint8Array>(name, { keyEncoding: 'view', valueEncoding: 'view' }) as unknown as IavlSublevel;
  return AppStores.open(
    new Map([
      [ACC_STORE, levelNodeDb(sub('iavl-acc'))],
      [BANK_STORE, levelNodeDb(sub('iavl-bank'))],
      [IBC_STORE_KEY, levelNodeDb(sub('iavl-ibc'))],
    ]),
    sub('iavl-heights'),
  );
}

export function balanceKey(address: Uint8Array, denom: string): Uint8Array {
  const d = utf8.encode(denom);
  const k = new Uint8Array(2 + address.length + d.length);
  k[0] = 0x02;
  k[1] = address.length;
  k.set(address, 2);
  k.set(d, 2 + address.length);
  return k;
}

export function accountKey(address: Uint8Array): Uint8Array {
  const k = new Uint8Array(1 + address.length);
  k[0] = 0x01;
  k.set(address, 1);
  return k;
}

/** Writes the accounts `keys` (hex addresses) as they are in `accounts` (absent: deleted) into the bank and acc trees. */
export function applyAccounts(stores: AppStores, accounts: AccountMap, keys: Iterable<string>, denom: string, prefix: string): void {
  const bank: [Uint8Array, Uint8Array | undefined][] = [];
  const acc: [Uint8Array, Uint8Array | undefined][] = [];
  for (const hex of keys) {
    const address = Uint8Array.from(Buffer.from(hex, 'hex'));
    const a = accounts.get(hex);
    bank.push([balanceKey(address, denom), a && a.balance > 0n ? utf8.encode(a.balance.toString()) : undefined]);
    acc.push([accountKey(address), a && BaseAccount.encode(BaseAccount.fromPartial({ address: toBech32(prefix, address), sequence: a.sequence })).finish()]);
  }
  stores.apply(BANK_STORE, bank);
  stores.apply(ACC_STORE, acc);
}

/** The accounts as committed at `height` (a past height's queries), read back from the bank and acc trees. */
export async function accountsAt(stores: AppStores, height: number): Promise<AccountMap | undefined> {
  const acc = stores.byHeight(ACC_STORE);
  const bank = stores.byHeight(BANK_STORE);
  if (!acc.hasVersion(height) || !bank.hasVersion(height)) return undefined;
  const map: AccountMap = new Map();
  const text = new TextDecoder();
  for (const [k, v] of await acc.entriesAt(height)) {
    map.set(Buffer.from(k.subarray(1)).toString('hex'), { balance: 0n, sequence: BaseAccount.decode(v).sequence });
  }
  for (const [k, v] of await bank.entriesAt(height)) {
    const hex = Buffer.from(k.subarray(2, 2 + k[1]!)).toString('hex');
    const e = map.get(hex) ?? { balance: 0n, sequence: 0n };
    map.set(hex, { ...e, balance: BigInt(text.decode(v)) });
  }
  return map;
}
