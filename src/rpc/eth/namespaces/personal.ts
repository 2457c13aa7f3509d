/**
 * The personal namespace (geth's, as Cosmos EVM serves it): password-protected accounts in the
 * node's keystore (Web3 Secret Storage v3 files under `<home>/keystore`). Unlocking over HTTP or
 * WebSocket follows `allow-insecure-unlock` (geth refuses it on every transport but IPC);
 * signatures are EIP-191 personal messages with v = 27/28.
 */
import { secp256k1 } from '../../../crypto/secp256k1-native.js';
import { Address, publicToAddress } from '@ethereumjs/util';
import { keccak256 } from '../../../crypto/keccak.js';
import * as accounts from '../accounts.js';
import type { EthEnv } from '../env.js';
import { ServerError } from '../errors.js';
import { data } from '../hex.js';
import { addressOf, bytesOf, optional, required, stringOf } from '../params.js';
import { route, type CallContext } from '../route.js';
import { txArgsOf, type TxArgs } from '../tx-args.js';
import { guarded, uintLike } from './namespace-params.js';
import { envWithKey } from './senders.js';
import { servicesOf } from './services.js';

/** geth's texts. */
export const PersonalText = {
  insecureUnlock: 'account unlock with HTTP access is forbidden',
  sigLength: 'signature must be 65 bytes long',
  sigV: 'invalid Ethereum signature (V is not 27 or 28)',
} as const;

const keys = (env: EthEnv) => servicesOf(env).keystore;
const password = required('password', 'string', stringOf);
const address = required('address', 'Address', addressOf());

/** keccak256("\x19Ethereum Signed Message:\n" ‖ len ‖ message), as geth's accounts.TextHash. */
export function personalHash(message: Uint8Array): Uint8Array {
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${message.length}`);
  return keccak256(Buffer.concat([prefix, message]));
}

export const newAccount = guarded((env: EthEnv, [pass]: [string]) => keys(env).newAccount(pass));

export const importRawKey = guarded(async (env: EthEnv, [hexKey, pass]: [string, string]) => {
  const h = hexKey.replace(/^0x/, '');
  if (!/^[0-9a-fA-F]{64}$/.test(h)) throw new ServerError('invalid hex character in private key');
  return keys(env).importRawKey(new Uint8Array(Buffer.from(h, 'hex')), pass);
});

export const listAccounts = (env: EthEnv) => keys(env).accounts();

export const unlockAccount = guarded(async (env: EthEnv, [a, pass, seconds]: [Address, string, number | undefined], ctx: CallContext) => {
  // Only the in-process provider is local, as geth's IPC; HTTP and WebSocket are both remote.
  if (ctx.transport !== 'in-process' && !env.config.allowInsecureUnlock) throw new ServerError(PersonalText.insecureUnlock);
  await keys(env).unlock(a.toString(), pass, seconds);
  return true;
});

/** geth answers `true` whether or not the account was unlocked. */
export const lockAccount = (env: EthEnv, [a]: [Address]) => {
  keys(env).lock(a.toString());
  return true;
};

export const sendTransaction = guarded(async (env: EthEnv, [args, pass]: [TxArgs, string]) => {
  if (args.from === undefined) throw new ServerError('from address is required');
  const key = await keys(env).key(args.from.toString(), pass);
  return accounts.sendTransaction(envWithKey(env, args.from, key), [args]);
});

export const sign = guarded(async (env: EthEnv, [message, a, pass]: [Uint8Array, Address, string]) => {
  const key = await keys(env).key(a.toString(), pass);
  const { signature, recid } = secp256k1.ecdsaSign(personalHash(message), key);
  const out = new Uint8Array(65);
  out.set(signature);
  out[64] = recid + 27;
  return data(out);
});

export const ecRecover = guarded((_env: EthEnv, [message, sig]: [Uint8Array, Uint8Array]) => {
  if (sig.length !== 65) throw new ServerError(PersonalText.sigLength);
  if (sig[64] !== 27 && sig[64] !== 28) throw new ServerError(PersonalText.sigV);
  const pub = secp256k1.ecdsaRecover(sig.subarray(0, 64), sig[64]! - 27, personalHash(message), false);
  return new Address(publicToAddress(pub.subarray(1))).toString();
});

export const PERSONAL_ROUTES = [
  route('personal_newAccount', {
    params: [password],
    handler: newAccount,
    doc: 'New key encrypted with the password (scrypt v3 file in `<home>/keystore`); returns its address.',
  }),
  route('personal_importRawKey', {
    params: [required('privateKey', 'string', stringOf), password],
    handler: importRawKey,
    doc: 'Stores a hex private key encrypted with the password; returns its address.',
  }),
  route('personal_listAccounts', { params: [], handler: listAccounts, doc: 'Addresses of the keystore accounts.' }),
  route('personal_unlockAccount', {
    params: [address, password, optional('duration', 'uint64', uintLike)],
    handler: unlockAccount,
    doc: 'Keeps the decrypted key for `duration` seconds (default 300, 0 = until locked); over HTTP or WebSocket only with `allow-insecure-unlock`.',
  }),
  route('personal_lockAccount', { params: [address], handler: lockAccount, doc: 'Forgets an unlocked key.' }),
  route('personal_sendTransaction', {
    params: [required('transaction', 'TransactionArgs', txArgsOf), password],
    handler: sendTransaction,
    doc: 'eth_sendTransaction signed with the keystore key the password decrypts.',
  }),
  route('personal_sign', {
    params: [required('data', 'Bytes', bytesOf()), address, password],
    handler: sign,
    doc: 'EIP-191 signature (v = 27/28) with the keystore key the password decrypts.',
  }),
  route('personal_ecRecover', {
    params: [required('data', 'Bytes', bytesOf()), required('signature', 'Bytes', bytesOf())],
    handler: ecRecover,
    doc: 'The address that made a personal_sign signature.',
  }),
] as const;
