/** Cosmos accounts as EVM accounts: balance and nonce updates, the native bank view, and the cache context shared with the IBC store. */
import { Address, createAccount, type Account } from '@ethereumjs/util';
import type { IbcStore } from '../../ibc/ibc-store.js';
import type { Checkpointing, CosmosState } from './cosmos-exec.js';

/** The accounts and the IBC store checkpointed together, as one SDK cache context. */
export function withIbcCache(state: CosmosState & Partial<Checkpointing>, store: IbcStore | undefined): CosmosState & Partial<Checkpointing> {
  if (!store) return state;
  return {
    getAccount: (a) => state.getAccount(a),
    putAccount: (a, acc) => state.putAccount(a, acc),
    checkpoint: async () => {
      await state.checkpoint?.();
      store.checkpoint();
    },
    commit: async () => {
      await state.commit?.();
      store.commit();
    },
    revert: async () => {
      await state.revert?.();
      store.revert();
    },
  };
}

/** The native denom's balances are the accounts' balances. */
export function nativeBalances(state: CosmosState) {
  return {
    getBalance: async (a: Uint8Array) => (await state.getAccount(new Address(Uint8Array.from(a))))?.balance ?? 0n,
    setBalance: async (a: Uint8Array, amount: bigint) => {
      const addr = new Address(Uint8Array.from(a));
      await state.putAccount(addr, withBalance(await state.getAccount(addr), amount));
    },
  };
}

export function withBalance(a: Account | undefined, balance: bigint): Account {
  if (a === undefined) return createAccount({ nonce: 0n, balance });
  const copy = createAccount({ nonce: a.nonce, balance });
  copy.storageRoot = a.storageRoot;
  copy.codeHash = a.codeHash;
  return copy;
}

export function withNonce(a: Account | undefined, nonce: bigint): Account {
  const copy = createAccount({ nonce, balance: a?.balance ?? 0n });
  if (a !== undefined) {
    copy.storageRoot = a.storageRoot;
    copy.codeHash = a.codeHash;
  }
  return copy;
}
