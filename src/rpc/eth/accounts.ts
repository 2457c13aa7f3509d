/**
 * The node's dev accounts (the keys the devnet funds, as Anvil unlocks its accounts):
 * eth_accounts, eth_sign (EIP-191), eth_signTypedData_v4 (EIP-712) and eth_sendTransaction,
 * which fills nonce, gas and fees like geth, signs and submits through the mempool.
 */
import { secp256k1 } from '../../crypto/secp256k1-native.js';
import { createTx, type TypedTxData } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import { keccak256 } from '../../crypto/keccak.js';
import type { DevSigner, EthEnv } from './env.js';
import { GethText, ServerError } from './errors.js';
import { typedDataDigest, type TypedData } from './eip712.js';
import { SUGGESTED_TIP } from './fees.js';
import { data } from './hex.js';
import { submitRaw } from './transaction.js';
import type { TxArgs } from './tx-args.js';
import { senderEnvFor } from './namespaces/senders.js';

function signer(env: EthEnv, address: Address | undefined): DevSigner {
  const hex = address?.toString();
  const s = env.signers.find((x) => x.hex === hex);
  if (!s) throw new ServerError(GethText.unknownAccount);
  return s;
}

/** r ‖ s ‖ v with v = 27 / 28, as geth's personal signatures. */
function sign65(hash: Uint8Array, key: Uint8Array): string {
  const { signature, recid } = secp256k1.ecdsaSign(hash, key);
  const out = new Uint8Array(65);
  out.set(signature);
  out[64] = recid + 27;
  return data(out);
}

/** Handler for `eth_accounts`. */
export function accounts(env: EthEnv): string[] {
  return env.signers.map((s) => s.hex);
}

/** Handler for `eth_sign`: EIP-191 `personal_sign` of the raw message bytes. */
export function sign(env: EthEnv, [address, message]: [Address, Uint8Array]): string {
  const s = signer(env, address);
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${message.length}`);
  return sign65(keccak256(Buffer.concat([prefix, message])), s.privateKey);
}

/** Handler for `eth_signTypedData_v4`. */
export function signTypedData(env: EthEnv, [address, typed]: [Address, TypedData]): string {
  return sign65(typedDataDigest(typed), signer(env, address).privateKey);
}

/** The next nonce of `address`: committed state plus its executable pending txs. */
async function nextNonce(env: EthEnv, address: Address): Promise<bigint> {
  const reader = await env.calls.executor.readerAt(env.view.latestHeight());
  const state = (await reader.account(address, address.toString().slice(2)))?.nonce ?? 0n;
  const pending = env.txpool.pendingNonce(address.toString());
  return pending !== undefined && pending > state ? pending : state;
}

/** Handler for `eth_sendTransaction`. */
export async function sendTransaction(env: EthEnv, [args]: [TxArgs]): Promise<string> {
  // A `from` that is no dev account may be an unlocked keystore account (geth) or an impersonated address (Anvil).
  if (args.from !== undefined && !env.signers.some((d) => d.address.equals(args.from!))) env = (await senderEnvFor(env, args.from)) ?? env;
  const s = signer(env, args.from);
  if (args.chainId !== undefined && args.chainId !== env.chainId) {
    throw new ServerError(`chainId does not match node's (have=${args.chainId}, want=${env.chainId})`);
  }
  if (args.to === undefined && (args.input === undefined || args.input.length === 0)) throw new ServerError(GethText.contractCreationNoData);
  const nonce = args.nonce ?? (await nextNonce(env, s.address));
  const gas = args.gas ?? (await env.calls.estimate({ ...args, from: s.address }, { height: env.view.latestHeight(), pending: env.pendingHeader() })).gas;
  const base = {
    nonce,
    gasLimit: gas,
    to: args.to,
    value: args.value ?? 0n,
    data: args.input ?? new Uint8Array(0),
    chainId: env.chainId,
  };
  let tx: TypedTxData;
  let maxCost: bigint;
  if (args.gasPrice !== undefined) {
    if (args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined) throw new ServerError(GethText.bothGasPrices);
    tx = args.accessList ? { ...base, type: 1, gasPrice: args.gasPrice, accessList: toList(args) } : { ...base, type: 0, gasPrice: args.gasPrice };
    maxCost = args.gasPrice * gas;
  } else {
    const tip = args.maxPriorityFeePerGas ?? SUGGESTED_TIP;
    const maxFee = args.maxFeePerGas ?? env.view.nextBaseFee() * 2n + tip;
    if (tip > maxFee) throw new ServerError(GethText.tipAboveFeeCap(s.hex, tip, maxFee));
    tx = { ...base, type: 2, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip, accessList: toList(args) };
    maxCost = maxFee * gas;
  }
  checkFeeCap(maxCost, env.config.txFeeCap);
  const signed = createTx(tx, { common: env.view.common }).sign(s.privateKey);
  return submitRaw(env, signed.serialize());
}

function toList(args: TxArgs): [Uint8Array, Uint8Array[]][] {
  return (args.accessList ?? []).map((e) => [e.address, e.storageKeys]);
}

/** geth's RPCTxFeeCap: refuse a fee above `txfee-cap` whole tokens (0 = no cap). */
function checkFeeCap(feeWei: bigint, capTokens: number): void {
  if (capTokens <= 0) return;
  const cap = BigInt(Math.round(capTokens * 1e6)) * 10n ** 12n;
  if (feeWei > cap) {
    const ether = (Number(feeWei / 10n ** 12n) / 1e6).toFixed(2);
    throw new ServerError(GethText.txFeeCap(ether, capTokens));
  }
}

/** Handler for `eth_resend`: the same dev-account tx (same nonce) with a new gas price and/or limit. */
export function resend(env: EthEnv, [args, gasPrice, gasLimit]: [TxArgs, bigint | undefined, bigint | undefined]): Promise<string> {
  if (args.nonce === undefined) throw new ServerError('missing transaction nonce in transaction spec');
  const next: TxArgs = { ...args };
  if (gasLimit !== undefined) next.gas = gasLimit;
  if (gasPrice !== undefined) {
    if (args.gasPrice !== undefined || args.maxFeePerGas === undefined) next.gasPrice = gasPrice;
    else next.maxFeePerGas = gasPrice;
  }
  return sendTransaction(env, [next]);
}
