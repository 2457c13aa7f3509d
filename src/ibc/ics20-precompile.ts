/**
 * The ICS-20 precompile of Cosmos EVM at 0x…0802 on the EVM chain: `transfer(sourcePort,
 * sourceChannel, denom, amount, sender, receiver, timeoutHeight, timeoutTimestamp, memo)` sends an
 * ICS-20 packet from an EVM account, through the same transfer handler as a Cosmos MsgTransfer
 * (escrow of the native denom from the EVM balance, or burn of a voucher going home), returns the
 * packet sequence and logs `IBCTransfer(address indexed sender, string indexed receiver,
 * string sourcePort, string sourceChannel, string denom, uint256 amount, string memo)`. The Cosmos
 * events (send_packet, ibc_transfer…) join the EVM tx's own, so relayers and indexers see them.
 *
 * Named simplification: only a tx sent straight to the precompile may transfer (Cosmos EVM also
 * lets a contract act for its caller with an authorization); `sender` must be the tx's sender.
 */
import { Address, createAccount, createAddressFromString } from '@ethereumjs/util';
import { EVMError, type ExecResult, type PrecompileInput } from '@ethereumjs/evm';
import type { AbciEvent } from '../abci/types.js';
import { CosmosTxError } from '../sdk/errors.js';
import { toBech32 } from '../crypto/bech32.js';
import { bytesEqual } from '../crypto/encoding.js';
import { keccak256 } from '../crypto/keccak.js';
import { MultiDenomBank } from './bank.js';
import type { IbcStore } from './ibc-store.js';

export const ICS20_PRECOMPILE_ADDRESS = '0x0000000000000000000000000000000000000802';
const ADDRESS_BYTES = createAddressFromString(ICS20_PRECOMPILE_ADDRESS).bytes;

const sig = (s: string) => keccak256(new TextEncoder().encode(s));
const TRANSFER_SELECTOR = Buffer.from(sig('transfer(string,string,string,uint256,address,string,(uint64,uint64),uint64,string)').subarray(0, 4)).toString(
  'hex',
);
const IBC_TRANSFER_TOPIC = sig('IBCTransfer(address,string,string,string,string,uint256,string)');

/** What one execution of the precompile works on (set by the block executor or the call service). */
export interface Ics20Context {
  store: IbcStore;
  chainId: string;
  bech32Prefix: string;
  denom: string;
  height: number;
  timeNs: bigint;
  /** The account that called the precompile directly; undefined when a contract called it. */
  caller: Uint8Array | undefined;
  /** The value the direct call carries (`transfer` is not payable). */
  value?: bigint;
  /** The Cosmos events of the transfer, for the tx's result. */
  events: AbciEvent[];
}

export function isIcs20Precompile(to: Uint8Array | undefined): boolean {
  return to !== undefined && bytesEqual(to, ADDRESS_BYTES);
}

const revert = (message: string, gasUsed: bigint): ExecResult => ({
  returnValue: errorData(message),
  executionGasUsed: gasUsed,
  exceptionError: new EVMError(EVMError.errorMessages.REVERT),
});

/** The precompile function, reading its context from `host` at each call. */
export function ics20Precompile(host: () => Ics20Context | undefined): (input: PrecompileInput) => Promise<ExecResult> {
  return async (input) => {
    const ctx = host();
    const selector = Buffer.from(input.data.subarray(0, 4)).toString('hex');
    if (!ctx) return revert('ICS20: IBC is not available here', 0n);
    if (selector !== TRANSFER_SELECTOR) return revert(`ICS20: unknown method 0x${selector} (this chain serves transfer)`, 0n);
    let args: ReturnType<typeof decodeTransfer>;
    try {
      args = decodeTransfer(input.data.subarray(4));
    } catch (e) {
      return revert(`ICS20: invalid arguments: ${(e as Error).message}`, 0n);
    }
    if (!ctx.caller) return revert('ICS20: transfer must be called directly by the sending account on this chain', 0n);
    if ((ctx.value ?? 0n) > 0n) return revert('ICS20: transfer is not payable: send the tokens as its amount, with no value', 0n);
    if (Buffer.compare(Buffer.from(ctx.caller), Buffer.from(args.sender)) !== 0)
      return revert(`ICS20: sender 0x${Buffer.from(args.sender).toString('hex')} is not the caller 0x${Buffer.from(ctx.caller).toString('hex')}`, 0n);
    let gasUsed = 0n;
    const state = input._EVM.stateManager;
    const native = {
      getBalance: async (a: Uint8Array) => (await state.getAccount(new Address(Uint8Array.from(a))))?.balance ?? 0n,
      setBalance: async (a: Uint8Array, amount: bigint) => {
        const addr = new Address(Uint8Array.from(a));
        const acc = (await state.getAccount(addr)) ?? createAccount({});
        acc.balance = amount;
        await state.putAccount(addr, acc);
      },
    };
    const sender = toBech32(ctx.bech32Prefix, args.sender);
    try {
      // The IBC handler (and its cosmjs-types codecs) loads with the first transfer.
      const { runIbcMsg } = await import('./handler.js');
      const out = await runIbcMsg(
        {
          kind: 'transfer',
          m: {
            sourcePort: args.sourcePort,
            sourceChannel: args.sourceChannel,
            token: { denom: args.denom, amount: args.amount.toString() },
            sender,
            receiver: args.receiver,
            timeoutHeight: args.timeoutHeight,
            timeoutTimestamp: args.timeoutTimestamp,
            memo: args.memo,
            encoding: '',
          },
        },
        {
          store: ctx.store,
          bank: new MultiDenomBank(ctx.store, native, ctx.denom, ctx.bech32Prefix),
          chainId: ctx.chainId,
          bech32Prefix: ctx.bech32Prefix,
          height: ctx.height,
          timeNs: ctx.timeNs,
          gas: (n, what) => {
            gasUsed += n;
            if (gasUsed > input.gasLimit) throw new CosmosTxError(11, `out of gas in location: ${what}`);
          },
          cache: {
            checkpoint: async () => {
              await state.checkpoint();
              ctx.store.checkpoint();
            },
            commit: async () => {
              await state.commit();
              ctx.store.commit();
            },
            revert: async () => {
              await state.revert();
              ctx.store.revert();
            },
          },
        },
      );
      const sequence = BigInt(out.events.find((e) => e.type === 'send_packet')?.attributes.find((a) => a.key === 'packet_sequence')?.value ?? '0');
      ctx.events.push(
        {
          type: 'message',
          attributes: [
            { key: 'action', value: '/ibc.applications.transfer.v1.MsgTransfer', index: true },
            { key: 'sender', value: sender, index: true },
          ],
        },
        ...out.events,
      );
      return {
        returnValue: word(sequence),
        executionGasUsed: gasUsed,
        logs: [
          [
            ADDRESS_BYTES,
            [IBC_TRANSFER_TOPIC, Uint8Array.from([...new Uint8Array(12), ...args.sender]), keccak256(new TextEncoder().encode(args.receiver))],
            encodeStrings([args.sourcePort, args.sourceChannel, args.denom, args.amount, args.memo]),
          ],
        ],
      };
    } catch (e) {
      if (!(e instanceof CosmosTxError)) throw e;
      if (e.code === 11 && e.codespace === 'sdk')
        return { returnValue: new Uint8Array(0), executionGasUsed: input.gasLimit, exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) };
      return revert(`ICS20: ${e.log}`, gasUsed);
    }
  };
}

// ---------------------------------------------------------------- ABI (the few shapes used here)

function word(n: bigint): Uint8Array {
  const b = new Uint8Array(32);
  let v = n;
  for (let i = 31; i >= 0 && v > 0n; i--) {
    b[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return b;
}

function readWord(data: Uint8Array, offset: number): bigint {
  if (offset + 32 > data.length) throw new Error('calldata too short');
  return BigInt(`0x${Buffer.from(data.subarray(offset, offset + 32)).toString('hex')}`);
}

function readString(data: Uint8Array, head: number): string {
  const at = Number(readWord(data, head));
  const len = Number(readWord(data, at));
  if (at + 32 + len > data.length) throw new Error('string out of bounds');
  return new TextDecoder().decode(data.subarray(at + 32, at + 32 + len));
}

const U64 = (v: bigint, what: string) => {
  if (v >= 1n << 64n) throw new Error(`${what} does not fit in uint64`);
  return v;
};

function decodeTransfer(d: Uint8Array) {
  const senderWord = readWord(d, 4 * 32);
  if (senderWord >= 1n << 160n) throw new Error('sender is not an address');
  return {
    sourcePort: readString(d, 0),
    sourceChannel: readString(d, 32),
    denom: readString(d, 64),
    amount: readWord(d, 96),
    sender: word(senderWord).subarray(12),
    receiver: readString(d, 160),
    timeoutHeight: {
      revisionNumber: U64(readWord(d, 192), 'timeoutHeight.revisionNumber'),
      revisionHeight: U64(readWord(d, 224), 'timeoutHeight.revisionHeight'),
    },
    timeoutTimestamp: U64(readWord(d, 256), 'timeoutTimestamp'),
    memo: readString(d, 288),
  };
}

export interface Ics20TransferArgs {
  sourcePort: string;
  sourceChannel: string;
  denom: string;
  amount: bigint;
  /** 20 bytes. */
  sender: Uint8Array;
  receiver: string;
  timeoutHeight: { revisionNumber: bigint; revisionHeight: bigint };
  timeoutTimestamp: bigint;
  memo: string;
}

/** The calldata of `transfer(...)` (what the routing API's /msgs hands an EVM wallet). */
export function encodeIcs20Transfer(a: Ics20TransferArgs): Uint8Array {
  const strings = [a.sourcePort, a.sourceChannel, a.denom, a.receiver, a.memo].map((v) => {
    const bytes = new TextEncoder().encode(v);
    const padded = new Uint8Array(Math.ceil(bytes.length / 32) * 32);
    padded.set(bytes);
    return Buffer.concat([word(BigInt(bytes.length)), padded]);
  });
  const headWords = 10;
  let offset = headWords * 32;
  const offsets = strings.map((t) => {
    const at = offset;
    offset += t.length;
    return word(BigInt(at));
  });
  const sender = new Uint8Array(32);
  sender.set(a.sender, 12);
  const head = [
    offsets[0]!,
    offsets[1]!,
    offsets[2]!,
    word(a.amount),
    sender,
    offsets[3]!,
    word(a.timeoutHeight.revisionNumber),
    word(a.timeoutHeight.revisionHeight),
    word(a.timeoutTimestamp),
    offsets[4]!,
  ];
  return Buffer.concat([Buffer.from(TRANSFER_SELECTOR, 'hex'), ...head, ...strings]);
}

/** abi.encode of strings and uint256s in order. */
function encodeStrings(values: (string | bigint)[]): Uint8Array {
  const heads: Uint8Array[] = [];
  const tails: Uint8Array[] = [];
  let offset = values.length * 32;
  for (const v of values) {
    if (typeof v === 'bigint') {
      heads.push(word(v));
      continue;
    }
    const bytes = new TextEncoder().encode(v);
    const padded = new Uint8Array(Math.ceil(bytes.length / 32) * 32);
    padded.set(bytes);
    heads.push(word(BigInt(offset)));
    tails.push(word(BigInt(bytes.length)), padded);
    offset += 32 + padded.length;
  }
  return Buffer.concat([...heads, ...tails]);
}

/** Solidity's `Error(string)` revert data. */
function errorData(message: string): Uint8Array {
  return Buffer.concat([sig('Error(string)').subarray(0, 4), encodeStrings([message])]);
}
