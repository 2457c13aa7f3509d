/**
 * A Cosmos SDK tx as the EVM chain's Cosmos face accepts it: a `TxRaw` (messages, auth info and one
 * signature), decoded with cosmjs-types' generated messages, with its signer's key and address worked
 * out and its signature checked the way x/auth does.
 *
 *   key type            address                                  digest signed
 *   secp256k1           ripemd160(sha256(compressed key))        sha256(sign bytes)
 *   eth_secp256k1       keccak256(uncompressed key)[12:]         keccak256(sign bytes)
 *
 * Sign bytes: SIGN_MODE_DIRECT signs the SignDoc built from the TxRaw's own body and auth-info bytes;
 * SIGN_MODE_LEGACY_AMINO_JSON signs the sorted JSON StdSignDoc. Signatures are 64-byte r‖s with a
 * low S. Multi-signer and multisig txs are refused (named in docs/cosmos-face.md).
 */
import { secp256k1 } from '../../crypto/secp256k1-native.js';
import { createHash } from 'node:crypto';
import { Address } from '@ethereumjs/util';
import type { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import type { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { lazyCosmjs } from '../../codec/cosmjs-types.js';
import { fromBech32 } from '../../crypto/bech32.js';
import { keccak256 } from '../../crypto/keccak.js';
import { decodeIbcMsg, ibcSigner, isIbcTypeUrl, type IbcMsg } from '../../ibc/msgs.js';
import type { PubKeyType } from './auth-registry.js';
import { CosmosTxError, SdkCode } from '../../sdk/errors.js';

// The codecs load with the first Cosmos tx (decoding is synchronous): see codec/cosmjs-types.ts.
const txV1beta1 = lazyCosmjs<typeof import('cosmjs-types/cosmos/tx/v1beta1/tx')>('cosmos/tx/v1beta1/tx');
const signingV1beta1 = lazyCosmjs<typeof import('cosmjs-types/cosmos/tx/signing/v1beta1/signing')>('cosmos/tx/signing/v1beta1/signing');
const secp256k1Keys = lazyCosmjs<typeof import('cosmjs-types/cosmos/crypto/secp256k1/keys')>('cosmos/crypto/secp256k1/keys');
const bankTx = lazyCosmjs<typeof import('cosmjs-types/cosmos/bank/v1beta1/tx')>('cosmos/bank/v1beta1/tx');

export const SECP256K1_PUBKEY_URL = '/cosmos.crypto.secp256k1.PubKey';
export const ETH_SECP256K1_PUBKEY_URL = '/cosmos.evm.crypto.v1.ethsecp256k1.PubKey';
export const MSG_SEND_URL = '/cosmos.bank.v1beta1.MsgSend';
export const MSG_MULTI_SEND_URL = '/cosmos.bank.v1beta1.MsgMultiSend';

const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

export interface Coin {
  denom: string;
  amount: bigint;
}

export type BankMsg =
  | { type: 'send'; typeUrl: typeof MSG_SEND_URL; from: Uint8Array; fromText: string; to: Uint8Array; toText: string; amount: Coin[] }
  | {
      type: 'multi-send';
      typeUrl: typeof MSG_MULTI_SEND_URL;
      inputs: { address: Uint8Array; text: string; coins: Coin[] }[];
      outputs: { address: Uint8Array; text: string; coins: Coin[] }[];
    };

/** An IBC message (src/ibc): a user's MsgTransfer or a relayer's client, handshake and packet messages. */
export interface IbcTxMsg {
  type: 'ibc';
  typeUrl: string;
  signer: Uint8Array;
  signerText: string;
  msg: IbcMsg;
}

export type CosmosMsg = BankMsg | IbcTxMsg;

export interface CosmosSigner {
  pubKeyType: PubKeyType;
  pubKeyUrl: string;
  /** 33-byte compressed key. */
  pubKey: Uint8Array;
  /** 20 bytes, derived from the key by its type. */
  address: Uint8Array;
  sequence: bigint;
  mode: SignMode;
  signature: Uint8Array;
}

export interface DecodedCosmosTx {
  readonly kind: 'cosmos';
  readonly bytes: Uint8Array;
  readonly cometHash: Uint8Array;
  readonly cometHashHex: string;
  readonly raw: TxRaw;
  readonly body: TxBody;
  readonly authInfo: AuthInfo;
  readonly msgs: CosmosMsg[];
  readonly signer: CosmosSigner;
  readonly fee: { coins: Coin[]; gasLimit: bigint; payer: string; granter: string };
  /** Lower-case 0x of the signer address (the mempool's sender key, shared with its EVM txs). */
  readonly senderHex: string;
  readonly sender: Address;
}

/** Whether `bytes` look like a protobuf TxRaw (field 1 first; an RLP tx never starts with 0x0a). */
export function looksLikeTxRaw(bytes: Uint8Array): boolean {
  return bytes[0] === 0x0a;
}

export function decodeCosmosTx(bytes: Uint8Array, cometHash: Uint8Array, cometHashHex: string, bech32Prefix: string): DecodedCosmosTx {
  let raw: TxRaw;
  let body: TxBody;
  let authInfo: AuthInfo;
  const { TxRaw, TxBody, AuthInfo } = txV1beta1(); // outside the try: a load failure is no parse error
  try {
    raw = TxRaw.decode(bytes);
    body = TxBody.decode(raw.bodyBytes);
    authInfo = AuthInfo.decode(raw.authInfoBytes);
  } catch (e) {
    throw new CosmosTxError(SdkCode.TxDecode, `${(e as Error).message}: tx parse error`);
  }
  if (body.messages.length === 0) throw new CosmosTxError(SdkCode.InvalidRequest, 'must contain at least one message: invalid request');
  if (body.extensionOptions.length > 0) throw new CosmosTxError(SdkCode.UnknownExtensionOptions, 'unknown extension options');
  if (authInfo.signerInfos.length !== 1 || raw.signatures.length !== 1) {
    throw new CosmosTxError(
      SdkCode.Unauthorized,
      `this chain accepts txs with exactly one signer and one signature, got ${authInfo.signerInfos.length} signer(s) and ${raw.signatures.length} signature(s): unauthorized`,
    );
  }
  const msgs = body.messages.map((any, i) => decodeMsg(any.typeUrl, any.value, i, bech32Prefix));
  const info = authInfo.signerInfos[0]!;
  const mode = info.modeInfo?.single?.mode;
  if (mode === undefined) throw new CosmosTxError(SdkCode.InvalidRequest, 'multisig sign modes are not supported: invalid request');
  const pk = info.publicKey;
  if (!pk) throw new CosmosTxError(SdkCode.InvalidPubKey, 'pubkey on the signer info is missing: invalid pubkey');
  let pubKeyType: PubKeyType;
  if (pk.typeUrl === SECP256K1_PUBKEY_URL) pubKeyType = 'secp256k1';
  else if (pk.typeUrl === ETH_SECP256K1_PUBKEY_URL) pubKeyType = 'eth_secp256k1';
  else throw new CosmosTxError(SdkCode.InvalidPubKey, `unrecognized public key type: ${pk.typeUrl}: invalid pubkey`);
  let key: Uint8Array;
  const { PubKey } = secp256k1Keys();
  try {
    key = PubKey.decode(pk.value).key;
  } catch {
    throw new CosmosTxError(SdkCode.InvalidPubKey, 'undecodable public key: invalid pubkey');
  }
  if (key.length !== 33 || (key[0] !== 2 && key[0] !== 3))
    throw new CosmosTxError(SdkCode.InvalidPubKey, `invalid public key length ${key.length}, expected a 33-byte compressed key: invalid pubkey`);
  let address: Uint8Array;
  try {
    address = addressOfKey(pubKeyType, key);
    // A secp256k1 key URL around an Ethereum key (cosmjs' simulate; @skip-go/client, which takes key
    // types from its own chain registry): when the messages' signer is the key's eth_secp256k1 address
    // and not its secp256k1 one, the key is that signer's eth_secp256k1 key (named in docs/cosmos-face.md).
    const signer = firstSigner(msgs[0]!);
    if (pubKeyType === 'secp256k1' && !sameBytes(address, signer)) {
      const eth = addressOfKey('eth_secp256k1', key);
      if (sameBytes(eth, signer)) {
        pubKeyType = 'eth_secp256k1';
        address = eth;
      }
    }
  } catch {
    throw new CosmosTxError(SdkCode.InvalidPubKey, 'the public key is not on the secp256k1 curve: invalid pubkey');
  }
  const fee = authInfo.fee;
  const coins = (fee?.amount ?? []).map((c) => parseCoin(c.denom, c.amount, 'fee'));
  const d: DecodedCosmosTx = {
    kind: 'cosmos',
    bytes,
    cometHash,
    cometHashHex,
    raw,
    body,
    authInfo,
    msgs,
    signer: { pubKeyType, pubKeyUrl: pk.typeUrl, pubKey: key, address, sequence: info.sequence, mode, signature: raw.signatures[0]! },
    fee: { coins, gasLimit: fee?.gasLimit ?? 0n, payer: fee?.payer ?? '', granter: fee?.granter ?? '' },
    senderHex: `0x${Buffer.from(address).toString('hex')}`,
    sender: new Address(Uint8Array.from(address)),
  };
  return d;
}

/** The signer a message names (the tx's one signer must be it). */
export function firstSigner(m: CosmosMsg): Uint8Array {
  return m.type === 'ibc' ? m.signer : m.type === 'send' ? m.from : m.inputs[0]!.address;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;

/** Bounds of what signing fills in when a simulated tx leaves the fee out (cosmjs simulates with none). */
const SIM_FEE_AMOUNT_DIGITS = 32;
const SIM_GAS_LIMIT = 0xffff_ffff_ffff_ffffn;

/**
 * The size the tx has once signed, for Simulate's tx-size gas: an unsigned tx (an empty signature, as
 * cosmjs simulates) gets a 64-byte signature, its key under its resolved type's URL, SIGN_MODE_DIRECT
 * and, without a fee, the largest fee it could carry in `feeDenom`. A signed tx is its own size.
 */
export function signedSizeBound(d: DecodedCosmosTx, feeDenom: string): number {
  if (d.signer.signature.length > 0) return d.bytes.length;
  const { TxRaw, AuthInfo } = txV1beta1();
  const { PubKey } = secp256k1Keys();
  const typeUrl = d.signer.pubKeyType === 'eth_secp256k1' ? ETH_SECP256K1_PUBKEY_URL : SECP256K1_PUBKEY_URL;
  const fee = d.authInfo.fee;
  const authInfoBytes = AuthInfo.encode({
    ...d.authInfo,
    signerInfos: [
      {
        publicKey: { typeUrl, value: PubKey.encode({ key: d.signer.pubKey }).finish() },
        modeInfo: { single: { mode: signingV1beta1().SignMode.SIGN_MODE_DIRECT } },
        sequence: d.signer.sequence,
      },
    ],
    fee: {
      amount: fee && fee.amount.length > 0 ? fee.amount : [{ denom: feeDenom, amount: '9'.repeat(SIM_FEE_AMOUNT_DIGITS) }],
      gasLimit: fee && fee.gasLimit > 0n ? fee.gasLimit : SIM_GAS_LIMIT,
      payer: fee?.payer ?? '',
      granter: fee?.granter ?? '',
    },
  }).finish();
  return TxRaw.encode({ bodyBytes: d.raw.bodyBytes, authInfoBytes, signatures: [new Uint8Array(64)] }).finish().length;
}

export function addressOfKey(type: PubKeyType, compressed: Uint8Array): Uint8Array {
  if (type === 'eth_secp256k1') return keccak256(secp256k1.publicKeyConvert(compressed, false).subarray(1)).subarray(12);
  return createHash('ripemd160').update(createHash('sha256').update(compressed).digest()).digest();
}

/** x/auth's signature check (the caller gives the account number from state and the chain id). */
export function verifyCosmosSignature(d: DecodedCosmosTx, chainId: string, accountNumber: bigint): string | undefined {
  const sig = d.signer.signature;
  if (sig.length !== 64) return `signature must be 64 bytes (r‖s), got ${sig.length}`;
  const s = BigInt(`0x${Buffer.from(sig.subarray(32)).toString('hex')}`);
  if (s > HALF_N) return 'signature is not in lower-S form';
  let signBytes: Uint8Array;
  const { SignMode } = signingV1beta1();
  if (d.signer.mode === SignMode.SIGN_MODE_DIRECT) {
    signBytes = txV1beta1().SignDoc.encode({ bodyBytes: d.raw.bodyBytes, authInfoBytes: d.raw.authInfoBytes, chainId, accountNumber }).finish();
  } else if (d.signer.mode === SignMode.SIGN_MODE_LEGACY_AMINO_JSON) {
    if (d.msgs.some((m) => m.type === 'ibc'))
      return 'SIGN_MODE_LEGACY_AMINO_JSON is not supported for IBC messages on this chain: sign them with SIGN_MODE_DIRECT';
    signBytes = aminoSignBytes(d, chainId, accountNumber);
  } else {
    return `sign mode ${d.signer.mode} is not supported (SIGN_MODE_DIRECT and SIGN_MODE_LEGACY_AMINO_JSON are)`;
  }
  const digest = d.signer.pubKeyType === 'eth_secp256k1' ? keccak256(signBytes) : createHash('sha256').update(signBytes).digest();
  try {
    return secp256k1.ecdsaVerify(sig, digest, d.signer.pubKey) ? undefined : 'unable to verify single signer signature';
  } catch {
    return 'unable to verify single signer signature';
  }
}

/** The legacy Amino JSON StdSignDoc, keys sorted, `&<>` escaped as the SDK and cosmjs write it. */
export function aminoSignBytes(d: DecodedCosmosTx, chainId: string, accountNumber: bigint): Uint8Array {
  const coins = (cs: Coin[]) => cs.map((c) => ({ amount: c.amount.toString(), denom: c.denom }));
  const msgs = (d.msgs as BankMsg[]).map((m) =>
    m.type === 'send'
      ? { type: 'cosmos-sdk/MsgSend', value: { amount: coins(m.amount), from_address: m.fromText, to_address: m.toText } }
      : {
          type: 'cosmos-sdk/MsgMultiSend',
          value: {
            inputs: m.inputs.map((i) => ({ address: i.text, coins: coins(i.coins) })),
            outputs: m.outputs.map((o) => ({ address: o.text, coins: coins(o.coins) })),
          },
        },
  );
  const fee: Record<string, unknown> = { amount: coins(d.fee.coins), gas: d.fee.gasLimit.toString() };
  if (d.fee.granter) fee['granter'] = d.fee.granter;
  if (d.fee.payer) fee['payer'] = d.fee.payer;
  const doc: Record<string, unknown> = {
    account_number: accountNumber.toString(),
    chain_id: chainId,
    fee,
    memo: d.body.memo,
    msgs,
    sequence: d.signer.sequence.toString(),
  };
  if (d.body.timeoutHeight > 0n) doc['timeout_height'] = d.body.timeoutHeight.toString();
  const json = JSON.stringify(sortKeys(doc)).replace(/&/g, '\\u0026').replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  return new TextEncoder().encode(json);
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sortKeys(o[k])]),
    );
  }
  return v;
}

function decodeMsg(typeUrl: string, value: Uint8Array, index: number, prefix: string): CosmosMsg {
  try {
    if (isIbcTypeUrl(typeUrl)) {
      const msg = decodeIbcMsg(typeUrl, value)!;
      const signerText = ibcSigner(msg);
      return { type: 'ibc', typeUrl, signer: parseAddress(signerText, prefix, 'signer'), signerText, msg };
    }
    if (typeUrl === MSG_SEND_URL) {
      const m = bankTx().MsgSend.decode(value);
      const amount = m.amount.map((c) => parseCoin(c.denom, c.amount, 'amount'));
      if (amount.length === 0) throw new CosmosTxError(SdkCode.InvalidCoins, `${coinsText(amount)}: invalid coins`);
      return {
        type: 'send',
        typeUrl,
        from: parseAddress(m.fromAddress, prefix, 'sender'),
        fromText: m.fromAddress,
        to: parseAddress(m.toAddress, prefix, 'recipient'),
        toText: m.toAddress,
        amount,
      };
    }
    if (typeUrl === MSG_MULTI_SEND_URL) {
      const m = bankTx().MsgMultiSend.decode(value);
      if (m.inputs.length === 0) throw new CosmosTxError(SdkCode.NoInputs, 'no inputs to send transaction', 'bank');
      if (m.inputs.length > 1) throw new CosmosTxError(SdkCode.MultipleSenders, 'multiple senders not allowed', 'bank');
      if (m.outputs.length === 0) throw new CosmosTxError(SdkCode.NoOutputs, 'no outputs to send transaction', 'bank');
      const side = (xs: { address: string; coins: { denom: string; amount: string }[] }[], what: string) =>
        xs.map((x) => ({ address: parseAddress(x.address, prefix, what), text: x.address, coins: x.coins.map((c) => parseCoin(c.denom, c.amount, 'amount')) }));
      const inputs = side(m.inputs, 'input');
      const outputs = side(m.outputs, 'output');
      const total = (xs: { coins: Coin[] }[]) => coinsText(sumCoins(xs.flatMap((x) => x.coins)));
      if (total(inputs) !== total(outputs)) throw new CosmosTxError(SdkCode.InputOutputMismatch, 'sum inputs != sum outputs', 'bank');
      return { type: 'multi-send', typeUrl, inputs, outputs };
    }
  } catch (e) {
    if (e instanceof CosmosTxError) throw e;
    throw new CosmosTxError(SdkCode.TxDecode, `failed to decode message ${index} (${typeUrl}): ${(e as Error).message}: tx parse error`);
  }
  throw new CosmosTxError(SdkCode.TxDecode, `unable to resolve type URL ${typeUrl}: tx parse error`);
}

function parseAddress(text: string, prefix: string, what: string): Uint8Array {
  if (text === '') throw new CosmosTxError(SdkCode.InvalidAddress, `invalid ${what} address: empty address string is not allowed: invalid address`);
  let decoded: { prefix: string; bytes: Uint8Array };
  try {
    decoded = fromBech32(text);
  } catch (e) {
    throw new CosmosTxError(SdkCode.InvalidAddress, `invalid ${what} address: ${(e as Error).message}: invalid address`);
  }
  if (decoded.prefix !== prefix)
    throw new CosmosTxError(
      SdkCode.InvalidAddress,
      `invalid ${what} address: hrp does not match bech32 prefix: expected '${prefix}' got '${decoded.prefix}': invalid address`,
    );
  if (decoded.bytes.length !== 20)
    throw new CosmosTxError(SdkCode.InvalidAddress, `invalid ${what} address: address length must be 20 bytes, got ${decoded.bytes.length}: invalid address`);
  return decoded.bytes;
}

const DENOM = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;

function parseCoin(denom: string, amount: string, what: string): Coin {
  if (!DENOM.test(denom)) throw new CosmosTxError(SdkCode.InvalidCoins, `invalid denom: ${denom}: invalid coins`);
  if (!/^\d+$/.test(amount)) throw new CosmosTxError(SdkCode.InvalidCoins, `invalid ${what}: ${amount}${denom}: invalid coins`);
  const v = BigInt(amount);
  if (v === 0n && what !== 'fee') throw new CosmosTxError(SdkCode.InvalidCoins, `${amount}${denom}: invalid coins`);
  return { denom, amount: v };
}

export function sumCoins(coins: Coin[]): Coin[] {
  const m = new Map<string, bigint>();
  for (const c of coins) m.set(c.denom, (m.get(c.denom) ?? 0n) + c.amount);
  return [...m].sort(([a], [b]) => (a < b ? -1 : 1)).map(([denom, amount]) => ({ denom, amount }));
}

/** The SDK's Coins.String(): `<amount><denom>` joined by commas, "" for none. */
export function coinsText(coins: Coin[]): string {
  return coins.map((c) => `${c.amount}${c.denom}`).join(',');
}
