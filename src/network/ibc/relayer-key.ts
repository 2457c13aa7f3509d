/**
 * The in-process relayer's key and the Cosmos txs it signs (SIGN_MODE_DIRECT, one signer): a
 * secp256k1 key on a Cosmos chain, the same key as eth_secp256k1 on the EVM chain's Cosmos face
 * (its address is then the key's Ethereum address), as Hermes signs for Cosmos EVM chains.
 */
import { secp256k1 } from '../../crypto/secp256k1-native.js';
import { createHash } from 'node:crypto';
import { addressOfKey, ETH_SECP256K1_PUBKEY_URL, SECP256K1_PUBKEY_URL } from '../../app/cosmos/cosmos-tx.js';
import { lazyCosmjs } from '../../codec/cosmjs-types.js';
import { toBech32 } from '../../crypto/bech32.js';
import { keccak256 } from '../../crypto/keccak.js';

// The codecs load with the first relay tx: a network funds the relayer's address before it needs them.
const keysCodec = lazyCosmjs<typeof import('cosmjs-types/cosmos/crypto/secp256k1/keys')>('cosmos/crypto/secp256k1/keys');
const signingCodec = lazyCosmjs<typeof import('cosmjs-types/cosmos/tx/signing/v1beta1/signing')>('cosmos/tx/signing/v1beta1/signing');
const txCodec = lazyCosmjs<typeof import('cosmjs-types/cosmos/tx/v1beta1/tx')>('cosmos/tx/v1beta1/tx');

/** The devnet relayer's private key: sha256("chainlet-relayer") (documented in docs/network.md; funded at genesis). */
export const RELAYER_PRIVATE_KEY: Uint8Array = createHash('sha256').update('chainlet-relayer').digest();

export type RelayerKeyType = 'secp256k1' | 'eth_secp256k1';

export interface RelayerKey {
  type: RelayerKeyType;
  privateKey: Uint8Array;
  publicKey: Uint8Array;
  /** 20 bytes, by the key type's rule. */
  address: Uint8Array;
}

export function relayerKey(type: RelayerKeyType, privateKey: Uint8Array = RELAYER_PRIVATE_KEY): RelayerKey {
  const publicKey = secp256k1.publicKeyCreate(privateKey, true);
  return { type, privateKey, publicKey, address: addressOfKey(type, publicKey) };
}

/** The relayer's funded address on a chain, as the genesis lists it. */
export function relayerAddress(type: RelayerKeyType, prefix?: string): string {
  const k = relayerKey(type);
  return type === 'eth_secp256k1' ? `0x${Buffer.from(k.address).toString('hex')}` : toBech32(prefix!, k.address);
}

export interface SignTxArgs {
  key: RelayerKey;
  chainId: string;
  accountNumber: bigint;
  sequence: bigint;
  msgs: { typeUrl: string; value: Uint8Array }[];
  gasLimit: bigint;
  fee: { denom: string; amount: bigint };
  memo?: string;
}

export function signRelayTx(a: SignTxArgs): Uint8Array {
  const { AuthInfo, SignDoc, TxBody, TxRaw } = txCodec();
  const { SignMode } = signingCodec();
  const { PubKey: Secp256k1PubKey } = keysCodec();
  const bodyBytes = TxBody.encode(TxBody.fromPartial({ messages: a.msgs, memo: a.memo ?? '' })).finish();
  const pubKey = {
    typeUrl: a.key.type === 'eth_secp256k1' ? ETH_SECP256K1_PUBKEY_URL : SECP256K1_PUBKEY_URL,
    value: Secp256k1PubKey.encode({ key: a.key.publicKey }).finish(),
  };
  const authInfoBytes = AuthInfo.encode(
    AuthInfo.fromPartial({
      signerInfos: [{ publicKey: pubKey, modeInfo: { single: { mode: SignMode.SIGN_MODE_DIRECT } }, sequence: a.sequence }],
      fee: { amount: a.fee.amount > 0n ? [{ denom: a.fee.denom, amount: a.fee.amount.toString() }] : [], gasLimit: a.gasLimit },
    }),
  ).finish();
  const signBytes = SignDoc.encode({ bodyBytes, authInfoBytes, chainId: a.chainId, accountNumber: a.accountNumber }).finish();
  const digest = a.key.type === 'eth_secp256k1' ? keccak256(signBytes) : createHash('sha256').update(signBytes).digest();
  const { signature } = secp256k1.ecdsaSign(digest, a.key.privateKey);
  return TxRaw.encode({ bodyBytes, authInfoBytes, signatures: [signature] }).finish();
}
