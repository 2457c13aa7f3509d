/**
 * Senders beyond the dev accounts, reusing eth_sendTransaction's own filling (nonce, gas, fees,
 * fee cap) through a derived env whose signer list holds just that sender:
 *
 *   keystore account (personal_sendTransaction, or unlocked)  → its decrypted key signs
 *   impersonated address (anvil_impersonateAccount)           → signed with a throw-away key, then
 *        re-signed with the impersonation marker (src/app/execution/impersonation.ts) as it is submitted
 *
 * eth_sendTransaction uses `senderEnvFor(env, from)` for a `from` that is not a dev account.
 */
import { createTxFromRLP, type TypedTxData } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import { impersonatedTx } from '../../../app/execution/impersonation.js';
import type { DevSigner, EthEnv } from '../env.js';
import { servicesOf } from './services.js';

/** Any valid secp256k1 key: its signature is replaced before the tx leaves the node. */
const THROWAWAY_KEY = new Uint8Array(32).fill(1);

function withSigner(env: EthEnv, signer: DevSigner, txpool = env.txpool): EthEnv {
  return { ...env, signers: [signer], txpool };
}

/** An env that signs as `address` with `privateKey`. */
export function envWithKey(env: EthEnv, address: Address, privateKey: Uint8Array): EthEnv {
  return withSigner(env, { address, hex: address.toString(), privateKey });
}

/** An env that sends as the impersonated `from`, without its key. */
export function envImpersonating(env: EthEnv, from: Address): EthEnv {
  const common = env.view.common;
  const txpool = {
    ...env.txpool,
    submit(raw: Uint8Array) {
      const signed = createTxFromRLP(raw, { common });
      const fields = { ...signed.toJSON(), type: signed.type } as Record<string, unknown>;
      delete fields.v;
      delete fields.r;
      delete fields.s;
      delete fields.yParity;
      return env.txpool.submit(impersonatedTx(fields as TypedTxData, from, common).serialize());
    },
  };
  return withSigner(env, { address: from, hex: from.toString(), privateKey: THROWAWAY_KEY }, txpool);
}

/**
 * For eth_sendTransaction from an address that is not a dev account: an env that can send as it
 * (an unlocked keystore account, as geth; an impersonated address, as Anvil), else undefined.
 */
export async function senderEnvFor(env: EthEnv, from: Address | undefined): Promise<EthEnv | undefined> {
  if (from === undefined || (env as EthEnv & { namespaces?: unknown }).namespaces === undefined) return undefined;
  const s = servicesOf(env);
  const hex = from.toString();
  if (s.keystore.isUnlocked(hex)) return envWithKey(env, from, await s.keystore.key(hex));
  if (s.devnet.impersonated.has(hex)) return envImpersonating(env, from);
  return undefined;
}
