/**
 * A call as the EVM runs it (from eth_call / eth_estimateGas / eth_simulateV1 arguments after
 * defaults), and the gas a tx pays before any code runs: intrinsic gas (EIP-2028 calldata,
 * EIP-2930 access list, EIP-3860 initcode, EIP-7702 authorizations) and the EIP-7623 calldata
 * floor. Parameters come from the chain's Common, read once per Common.
 */
import type { Common } from '@ethereumjs/common';
import type { Address } from '@ethereumjs/util';

export interface AccessListEntry {
  address: Uint8Array;
  storageKeys: Uint8Array[];
}

export interface Authorization {
  chainId: bigint;
  address: Uint8Array;
  nonce: bigint;
  yParity: number;
  r: bigint;
  s: bigint;
}

export interface CallMessage {
  from: Address;
  /** Undefined: contract creation. */
  to: Address | undefined;
  data: Uint8Array;
  value: bigint;
  gasLimit: bigint;
  /** Price per gas actually charged (0: a free call, as geth's eth_call without fee fields). */
  gasPrice: bigint;
  /** What the balance check multiplies the gas by (geth: the fee cap). */
  feeCap: bigint;
  /** Part of gasPrice that goes to the coinbase (the rest is burnt). */
  tip: bigint;
  accessList: AccessListEntry[];
  authorizations: Authorization[];
}

interface GasParams {
  tx: bigint;
  create: bigint;
  zeroByte: bigint;
  nonZeroByte: bigint;
  alAddress: bigint;
  alKey: bigint;
  initCodeWord: bigint;
  floorPerToken: bigint;
  perAuth: bigint;
  maxRefundQuotient: bigint;
  floorActive: boolean;
}

const cache = new WeakMap<Common, GasParams>();

export function gasParams(common: Common): GasParams {
  let p = cache.get(common);
  if (p === undefined) {
    const floorActive = common.isActivatedEIP(7623);
    p = {
      tx: common.param('txGas'),
      create: common.param('txCreationGas'),
      zeroByte: common.param('txDataZeroGas'),
      nonZeroByte: common.param('txDataNonZeroGas'),
      alAddress: common.param('accessListAddressGas'),
      alKey: common.param('accessListStorageKeyGas'),
      initCodeWord: common.isActivatedEIP(3860) ? common.param('initCodeWordGas') : 0n,
      floorPerToken: floorActive ? common.param('totalCostFloorPerToken') : 0n,
      perAuth: common.isActivatedEIP(7702) ? common.param('perEmptyAccountCost') : 0n,
      maxRefundQuotient: common.param('maxRefundQuotient'),
      floorActive,
    };
    cache.set(common, p);
  }
  return p;
}

export interface TxGasBase {
  intrinsic: bigint;
  /** EIP-7623: the least a tx with this calldata is charged (0 before Prague). */
  floor: bigint;
}

export function txGasBase(common: Common, msg: Pick<CallMessage, 'to' | 'data' | 'accessList' | 'authorizations'>): TxGasBase {
  const p = gasParams(common);
  // Counted as a number: a BigInt increment allocates (a call's calldata is read once per byte).
  let zeroCount = 0;
  const data = msg.data;
  for (let i = 0; i < data.length; i++) if (data[i] === 0) zeroCount++;
  const zeros = BigInt(zeroCount);
  const nonZeros = BigInt(data.length - zeroCount);
  let intrinsic = p.tx + zeros * p.zeroByte + nonZeros * p.nonZeroByte;
  if (msg.to === undefined) intrinsic += p.create + ((BigInt(data.length) + 31n) / 32n) * p.initCodeWord;
  for (const e of msg.accessList) intrinsic += p.alAddress + BigInt(e.storageKeys.length) * p.alKey;
  intrinsic += BigInt(msg.authorizations.length) * p.perAuth;
  const floor = p.floorActive ? p.tx + (zeros + nonZeros * 4n) * p.floorPerToken : 0n;
  return { intrinsic, floor };
}
