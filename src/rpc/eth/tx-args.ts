/**
 * geth's `TransactionArgs`: the call / transaction object of eth_call, eth_estimateGas,
 * eth_createAccessList, eth_sendTransaction and eth_simulateV1. Decoding checks field types
 * with geth's struct-field errors; unknown fields are ignored as Go's JSON decoder ignores them.
 */
import type { Address } from '@ethereumjs/util';
import { GethText, InvalidParamsError } from './errors.js';
import type { AccessListEntry, Authorization } from '../../app/evm/message.js';
import { addressOf, arrayOf, bigOf, bytesOf, hashOf, jsonKind, objectOf, typeError, uint64Of, type Decoder } from './params.js';
import { decodeQuantity } from './hex.js';

export interface TxArgs {
  from?: Address;
  to?: Address;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  value?: bigint;
  nonce?: bigint;
  /** `input`, or `data` when only that is given. */
  input?: Uint8Array;
  accessList?: AccessListEntry[];
  chainId?: bigint;
  type?: bigint;
  authorizationList?: Authorization[];
}

const S = 'TransactionArgs';
const f = (name: string) => `${S}.${name}`;

const accessListOf: Decoder<AccessListEntry[]> = (raw) => {
  if (!Array.isArray(raw)) throw typeError(jsonKind(raw), 'types.AccessList', f('accessList'));
  return raw.map((item) => {
    const o = objectOf(item, 'types.AccessTuple');
    return {
      address: addressOf('AccessTuple.address')(o['address']).bytes,
      storageKeys: arrayOf(hashOf('AccessTuple.storageKeys'), '[]common.Hash')(o['storageKeys'] ?? []),
    };
  });
};

const authorizationListOf: Decoder<Authorization[]> = (raw) => {
  if (!Array.isArray(raw)) throw typeError(jsonKind(raw), '[]types.SetCodeAuthorization', f('authorizationList'));
  return raw.map((item) => {
    const o = objectOf(item, 'types.SetCodeAuthorization');
    const yParity = o['yParity'] ?? o['v'];
    return {
      chainId: bigOf('SetCodeAuthorization.chainId')(o['chainId']),
      address: addressOf('SetCodeAuthorization.address')(o['address']).bytes,
      nonce: uint64Of('SetCodeAuthorization.nonce')(o['nonce']),
      yParity: Number(uint64Of('SetCodeAuthorization.yParity')(yParity)),
      r: bigOf('SetCodeAuthorization.r')(o['r']),
      s: bigOf('SetCodeAuthorization.s')(o['s']),
    };
  });
};

function opt<T>(o: Record<string, unknown>, key: string, dec: Decoder<T>): T | undefined {
  const v = o[key];
  return v === undefined || v === null ? undefined : dec(v);
}

/** Decodes a TransactionArgs object (throws ParamDecodeError / InvalidParamsError). */
export const txArgsOf: Decoder<TxArgs> = (raw) => {
  const o = objectOf(raw, 'ethapi.TransactionArgs');
  const data = opt(o, 'data', bytesOf(f('data')));
  const input = opt(o, 'input', bytesOf(f('input')));
  if (data !== undefined && input !== undefined && Buffer.compare(data, input) !== 0) throw new InvalidParamsError(GethText.inputAndData);
  const args: TxArgs = {
    from: opt(o, 'from', addressOf(f('from'))),
    to: opt(o, 'to', addressOf(f('to'))),
    gas: opt(o, 'gas', uint64Of(f('gas'))),
    gasPrice: opt(o, 'gasPrice', bigOf(f('gasPrice'))),
    maxFeePerGas: opt(o, 'maxFeePerGas', bigOf(f('maxFeePerGas'))),
    maxPriorityFeePerGas: opt(o, 'maxPriorityFeePerGas', bigOf(f('maxPriorityFeePerGas'))),
    value: opt(o, 'value', bigOf(f('value'))),
    nonce: opt(o, 'nonce', uint64Of(f('nonce'))),
    input: input ?? data,
    accessList: opt(o, 'accessList', accessListOf),
    chainId: opt(o, 'chainId', bigOf(f('chainId'))),
    type: opt(o, 'type', (v) => {
      if (typeof v !== 'string') throw typeError(jsonKind(v), 'hexutil.Uint64', f('type'));
      return decodeQuantity(v, 64);
    }),
    authorizationList: opt(o, 'authorizationList', authorizationListOf),
  };
  if (o['blobVersionedHashes'] !== undefined && o['blobVersionedHashes'] !== null) {
    throw new InvalidParamsError('blob transactions are not supported');
  }
  return args;
};
