/**
 * A Cosmos tx on the EVM chain's state: the ante steps of a Cosmos EVM chain (REFERENCE-COSMOS §2.6),
 * then bank's MsgSend / MsgMultiSend, with the SDK's gas costs, events and error codes. Balances and
 * sequences are the EVM accounts' balances and nonces, so both faces see one account.
 *
 *   memo ─ timeout height ─ min gas price and base fee ─ tx size gas ─ DEDUCT FEE ─ SET PUBKEY ─
 *   sig gas ─ SIG VERIFY (sequence, account number, chain id) ─ INCREMENT SEQUENCE ─ messages
 *
 * In a block the ante writes stay when a message fails (the fee is paid, the sequence used); an ante
 * failure changes nothing. CheckTx runs the ante checks on the committed state without writing.
 * Simulate skips the fee and signature checks and meters with no limit, as the SDK does, and charges
 * every gas step DeliverTx charges (the tx size once signed, the fee deduction, the signature of the
 * key type the signer's account has or will have), so simulated gas covers delivered gas.
 */
import { exactSizeBuffers } from '../../codec/cosmjs-types.js';
import { Address, createAccount, type Account } from '@ethereumjs/util';
import { MsgMultiSendResponse, MsgSendResponse } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import type { AbciEvent, ExecTxResult, ResponseCheckTx } from '../../abci/types.js';
import { toBech32 } from '../../crypto/bech32.js';
import { MultiDenomBank, storedBalance } from '../../ibc/bank.js';
import { runIbcMsg } from '../../ibc/handler.js';
import type { IbcStore } from '../../ibc/ibc-store.js';
import { hostKeys } from '../../ibc/keys.js';
import { FEE_COLLECTOR, type AuthRegistry } from './auth-registry.js';
import { coinsText, firstSigner, signedSizeBound, verifyCosmosSignature, type Coin, type DecodedCosmosTx } from './cosmos-tx.js';
import { CosmosTxError, SdkCode } from '../../sdk/errors.js';

exactSizeBuffers();

/** The SDK's default gas costs (x/auth params and the KV store gas config). */
export const GAS = {
  txSizePerByte: 10n,
  sigVerifySecp256k1: 1000n,
  /** Cosmos EVM charges an eth_secp256k1 signature as an Ethereum tx's base cost. */
  sigVerifyEthSecp256k1: 21000n,
  readFlat: 1000n,
  readPerByte: 3n,
  writeFlat: 2000n,
  writePerByte: 30n,
  hasFlat: 1000n,
} as const;
/** Bytes of the stored records the gas of a read or write is charged on (a BaseAccount, a balance). */
const ACCOUNT_BYTES = 80n;
const BALANCE_BYTES = 48n;
export const MAX_MEMO_CHARACTERS = 256;

export interface CosmosState {
  getAccount(address: Address): Promise<Account | undefined>;
  putAccount(address: Address, account: Account | undefined): Promise<void>;
}

export interface CosmosChainEnv {
  chainId: string;
  denom: string;
  bech32Prefix: string;
  auth: AuthRegistry;
  minGasPrice: bigint;
  baseFee: bigint;
  /** The height the tx executes at (timeout height). */
  height: number;
  /**
   * The IBC module, on a chain that has one: its store (vouchers, clients, channels, packets) and
   * the block time. Anyone may relay: every proof is verified (src/ibc/proofs.ts).
   */
  ibc?: { store: IbcStore; timeNs: bigint };
}

export type CosmosMode = 'check' | 'deliver' | 'simulate';

class GasMeter {
  used = 0n;
  constructor(readonly limit: bigint | undefined) {}
  consume(amount: bigint, what: string): void {
    this.used += amount;
    if (this.limit !== undefined && this.used > this.limit)
      throw new CosmosTxError(SdkCode.OutOfGas, `out of gas in location: ${what}; gasWanted: ${this.limit}, gasUsed: ${this.used}: out of gas`);
  }
}

export interface CosmosOutcome {
  result: ExecTxResult;
  /** CheckTx: the sequence the tx uses and its fee per gas, for the mempool's order. */
  sequence: bigint;
  feePerGas: bigint;
}

const EMPTY = new Uint8Array(0);

/**
 * CheckTx of a Cosmos tx, as the EVM app and the hub answer it: the tx run in 'check' mode on the
 * committed accounts, then the mempool's fields (sender, nonce, fee priority, the sender's state nonce).
 */
export async function checkCosmosTx(d: DecodedCosmosTx, env: CosmosChainEnv, committed: CosmosState): Promise<ResponseCheckTx> {
  const out = await runCosmosTx(d, env, committed, 'check');
  if (out.result.code !== 0) return { ...out.result, events: [] };
  const account = await committed.getAccount(d.sender);
  return {
    ...out.result,
    sender: d.senderHex,
    nonce: d.signer.sequence,
    priority: out.feePerGas,
    maxFeePerGas: out.feePerGas,
    senderStateNonce: account?.nonce ?? 0n,
  };
}

export async function runCosmosTx(
  d: DecodedCosmosTx,
  env: CosmosChainEnv,
  accounts: CosmosState & Partial<Checkpointing>,
  mode: CosmosMode,
): Promise<CosmosOutcome> {
  const state = withIbcCache(accounts, env.ibc?.store);
  const gasLimit = d.fee.gasLimit;
  const meter = new GasMeter(mode === 'simulate' ? undefined : gasLimit);
  const events: AbciEvent[] = [];
  const bech = (a: Uint8Array) => toBech32(env.bech32Prefix, a);
  const writes = mode === 'deliver';
  const feeCoin = d.fee.coins.find((c) => c.denom === env.denom);
  const feeAmount = feeCoin?.amount ?? 0n;
  const feePerGas = gasLimit > 0n ? feeAmount / gasLimit : 0n;
  const fail = (e: unknown, gasUsed: bigint): CosmosOutcome => {
    if (!(e instanceof CosmosTxError)) throw e;
    return {
      result: { code: e.code, data: EMPTY, log: e.log, info: '', gasWanted: Number(gasLimit), gasUsed: Number(gasUsed), events: [], codespace: e.codespace },
      sequence: d.signer.sequence,
      feePerGas,
    };
  };

  // The signer: in simulate, the first message's signer (cosmjs simulates with any key type).
  const signer = mode === 'simulate' ? firstSigner(d.msgs[0]!) : d.signer.address;
  const signerAddr = new Address(Uint8Array.from(signer));
  const signerHex = Buffer.from(signer).toString('hex');

  await state.checkpoint?.();
  try {
    // ---- ante ----
    if (gasLimit === 0n && mode !== 'simulate') throw new CosmosTxError(SdkCode.InvalidGasLimit, 'must provide positive gas: invalid gas limit');
    if ([...d.body.memo].length > MAX_MEMO_CHARACTERS)
      throw new CosmosTxError(
        SdkCode.MemoTooLarge,
        `maximum number of characters is ${MAX_MEMO_CHARACTERS} but received ${[...d.body.memo].length} characters: memo too large`,
      );
    if (d.body.timeoutHeight > 0n && BigInt(env.height) > d.body.timeoutHeight)
      throw new CosmosTxError(SdkCode.TxTimeoutHeight, `block height: ${env.height}, timeout height: ${d.body.timeoutHeight}: tx timeout height`);
    const unrouted = env.ibc ? undefined : d.msgs.find((m) => m.type === 'ibc');
    if (unrouted)
      throw new CosmosTxError(SdkCode.TxDecode, `unable to resolve type URL ${unrouted.typeUrl}: IBC is not enabled on chain ${env.chainId}: tx parse error`);
    if (d.fee.payer !== '' || d.fee.granter !== '')
      throw new CosmosTxError(SdkCode.InvalidRequest, 'fee payers and fee grants are not supported on this chain: invalid request');
    if (mode !== 'simulate') checkFee(d, env, feeAmount, gasLimit);
    meter.consume(GAS.txSizePerByte * BigInt(mode === 'simulate' ? signedSizeBound(d, env.denom) : d.bytes.length), 'txSize');

    // Deduct the fee (simulate: nothing is paid, but the gas of paying is charged: the signed tx carries a fee).
    meter.consume(GAS.readFlat + GAS.readPerByte * ACCOUNT_BYTES, 'ReadFlat');
    const account = await state.getAccount(signerAddr);
    if (account === undefined && mode !== 'simulate')
      throw new CosmosTxError(SdkCode.UnknownAddress, `account ${bech(signer)} does not exist: unknown address`);
    const fee: Coin[] = feeAmount > 0n ? [{ denom: env.denom, amount: feeAmount }] : [];
    if (mode === 'simulate') meter.consume(2n * (GAS.writeFlat + GAS.writePerByte * BALANCE_BYTES), 'WriteFlat');
    else if (feeAmount > 0n) {
      const balance = account?.balance ?? 0n;
      if (balance < feeAmount)
        throw new CosmosTxError(
          SdkCode.InsufficientFunds,
          `spendable balance ${balance}${env.denom} is smaller than ${feeAmount}${env.denom}: insufficient funds`,
        );
      meter.consume(2n * (GAS.writeFlat + GAS.writePerByte * BALANCE_BYTES), 'WriteFlat');
      if (writes) {
        await state.putAccount(signerAddr, withBalance(account, balance - feeAmount));
        const collector = new Address(Uint8Array.from(FEE_COLLECTOR));
        const c = await state.getAccount(collector);
        await state.putAccount(collector, withBalance(c, (c?.balance ?? 0n) + feeAmount));
      }
      events.push(ev('coin_spent', ['spender', bech(signer)], ['amount', coinsText(fee)]));
      events.push(ev('coin_received', ['receiver', bech(FEE_COLLECTOR)], ['amount', coinsText(fee)]));
      events.push(ev('transfer', ['recipient', bech(FEE_COLLECTOR)], ['sender', bech(signer)], ['amount', coinsText(fee)]));
    }
    events.push(ev('tx', ['fee', coinsText(fee)], ['fee_payer', bech(signer)]));

    // Set the pubkey; check the signer is who the messages name.
    if (mode !== 'simulate') {
      for (const m of d.msgs) {
        const s = firstSigner(m);
        if (Buffer.compare(Buffer.from(s), Buffer.from(signer)) !== 0)
          throw new CosmosTxError(SdkCode.InvalidPubKey, `pubKey does not match signer address ${bech(s)} with signer index: 0: invalid pubkey`);
      }
      if (writes) await env.auth.setPubKey(signerHex, { type: d.signer.pubKeyType, key: d.signer.pubKey });
    }
    const sequence = account?.nonce ?? 0n;
    events.push(ev('tx', ['acc_seq', `${bech(signer)}/${mode === 'simulate' ? sequence : d.signer.sequence}`]));
    events.push(ev('tx', ['signature', Buffer.from(d.signer.signature).toString('base64')]));

    // Signature gas (Cosmos EVM's SigVerificationGasConsumer, by key type), then the signature itself
    // against the sequence and account number. Simulate charges the key the account has, else the tx's
    // (its type resolved from the signer's address: cosmjs simulates any wallet with a secp256k1 key URL).
    const keyType = mode === 'simulate' ? ((await env.auth.get(signerHex))?.pubKey?.type ?? d.signer.pubKeyType) : d.signer.pubKeyType;
    meter.consume(keyType === 'eth_secp256k1' ? GAS.sigVerifyEthSecp256k1 : GAS.sigVerifySecp256k1, `ante verify: ${keyType}`);
    if (mode !== 'simulate') {
      const tooOld = d.signer.sequence < sequence;
      const mismatch = mode === 'deliver' ? d.signer.sequence !== sequence : tooOld;
      if (mismatch)
        throw new CosmosTxError(SdkCode.WrongSequence, `account sequence mismatch, expected ${sequence}, got ${d.signer.sequence}: incorrect account sequence`);
      // CheckTx of a later sequence: signed for the account number it has (or will get).
      const number = (await env.auth.get(signerHex, true))!.accountNumber;
      const why = verifyCosmosSignature(d, env.chainId, number);
      if (why !== undefined)
        throw new CosmosTxError(
          SdkCode.Unauthorized,
          `signature verification failed; please verify account number (${number}) and chain-id (${env.chainId}): (${why}): unauthorized`,
        );
    }
    // Increment the sequence (the EVM nonce).
    meter.consume(GAS.readFlat + GAS.readPerByte * ACCOUNT_BYTES + GAS.writeFlat + GAS.writePerByte * ACCOUNT_BYTES, 'WriteFlat');
    if (writes) {
      const a = await state.getAccount(signerAddr);
      await state.putAccount(signerAddr, withNonce(a, (a?.nonce ?? 0n) + 1n));
    }
    await state.commit?.();
  } catch (e) {
    await state.revert?.();
    return fail(e, meter.used);
  }
  if (mode === 'check') {
    return {
      result: { code: 0, data: EMPTY, log: '', info: '', gasWanted: Number(gasLimit), gasUsed: Number(meter.used), events: [], codespace: '' },
      sequence: d.signer.sequence,
      feePerGas,
    };
  }

  // ---- messages ----
  const anteEvents = events.slice();
  const responses: { typeUrl: string; value: Uint8Array }[] = [];
  await state.checkpoint?.();
  try {
    for (let i = 0; i < d.msgs.length; i++) {
      const m = d.msgs[i]!;
      // IBC messages: their events carry the module, so the message event names none (as baseapp does).
      const msgEvents: AbciEvent[] = [
        m.type === 'ibc'
          ? ev('message', ['action', m.typeUrl], ['sender', bech(m.signer)])
          : ev('message', ['action', m.typeUrl], ['sender', bech(firstSigner(m))], ['module', 'bank']),
      ];
      try {
        if (m.type === 'ibc') {
          const ibc = env.ibc!;
          const out = await runIbcMsg(m.msg, {
            store: ibc.store,
            bank: new MultiDenomBank(ibc.store, nativeBalances(state), env.denom, env.bech32Prefix),
            chainId: env.chainId,
            bech32Prefix: env.bech32Prefix,
            height: env.height,
            timeNs: ibc.timeNs,
            gas: (n, what) => meter.consume(n, what),
            cache: { checkpoint: async () => state.checkpoint?.(), commit: async () => state.commit?.(), revert: async () => state.revert?.() },
          });
          msgEvents.push(...out.events);
          responses.push(out.response);
        } else if (m.type === 'send') {
          await move(state, env, meter, m.from, m.amount, [{ to: m.to, coins: m.amount }], msgEvents, bech);
          responses.push({ typeUrl: '/cosmos.bank.v1beta1.MsgSendResponse', value: MsgSendResponse.encode({}).finish() });
        } else {
          const input = m.inputs[0]!;
          await move(
            state,
            env,
            meter,
            input.address,
            input.coins,
            m.outputs.map((o) => ({ to: o.address, coins: o.coins })),
            msgEvents,
            bech,
          );
          responses.push({ typeUrl: '/cosmos.bank.v1beta1.MsgMultiSendResponse', value: MsgMultiSendResponse.encode({}).finish() });
        }
      } catch (e) {
        if (e instanceof CosmosTxError) throw new CosmosTxError(e.code, `failed to execute message; message index: ${i}: ${e.log}`, e.codespace);
        throw e;
      }
      for (const e of msgEvents) e.attributes.push({ key: 'msg_index', value: String(i), index: true });
      events.push(...msgEvents);
    }
    await state.commit?.();
  } catch (e) {
    await state.revert?.();
    if (!(e instanceof CosmosTxError)) throw e;
    return {
      result: {
        code: e.code,
        data: EMPTY,
        log: e.log,
        info: '',
        gasWanted: Number(gasLimit),
        gasUsed: Number(meter.used),
        events: anteEvents,
        codespace: e.codespace,
      },
      sequence: d.signer.sequence,
      feePerGas,
    };
  }
  const data = TxMsgData.encode({ data: [], msgResponses: responses }).finish();
  return {
    result: { code: 0, data, log: '', info: '', gasWanted: Number(gasLimit), gasUsed: Number(meter.used), events, codespace: '' },
    sequence: d.signer.sequence,
    feePerGas,
  };
}

export interface Checkpointing {
  checkpoint(): Promise<void>;
  commit(): Promise<void>;
  revert(): Promise<void>;
}

function checkFee(d: DecodedCosmosTx, env: CosmosChainEnv, feeAmount: bigint, gasLimit: bigint): void {
  const others = d.fee.coins.filter((c) => c.denom !== env.denom);
  if (others.length > 0 || d.fee.coins.length > 1)
    throw new CosmosTxError(SdkCode.InsufficientFee, `expected only native token ${env.denom} for fee, but got ${coinsText(d.fee.coins)}: insufficient fee`);
  if (env.minGasPrice > 0n) {
    const need = env.minGasPrice * gasLimit;
    if (feeAmount === 0n)
      throw new CosmosTxError(
        SdkCode.InsufficientFee,
        `fee not provided. Please use the --fees flag or the --gas-price flag along with the --gas flag to estimate the fee. The minimun fee is ${need}${env.denom}: insufficient fee`,
      );
    if (feeAmount < need)
      throw new CosmosTxError(
        SdkCode.InsufficientFee,
        `provided fee < minimum global fee (${feeAmount}${env.denom} < ${need}${env.denom}). Please increase the gas price.: insufficient fee`,
      );
  }
  // Cosmos EVM's dynamic fee checker: the gas price must reach the base fee.
  if (env.baseFee > 0n && feeAmount < env.baseFee * gasLimit) {
    throw new CosmosTxError(
      SdkCode.InsufficientFee,
      `gas prices too low, got: ${gasLimit > 0n ? feeAmount / gasLimit : 0n}${env.denom} required: ${env.baseFee}${env.denom}. Please retry using a higher gas price or a higher fee: insufficient fee`,
    );
  }
}

async function move(
  state: CosmosState,
  env: CosmosChainEnv,
  meter: GasMeter,
  from: Uint8Array,
  total: Coin[],
  outputs: { to: Uint8Array; coins: Coin[] }[],
  events: AbciEvent[],
  bech: (a: Uint8Array) => string,
): Promise<void> {
  const fromAddr = new Address(Uint8Array.from(from));
  meter.consume(GAS.readFlat + GAS.readPerByte * BALANCE_BYTES, 'ReadFlat');
  const sender = await state.getAccount(fromAddr);
  const store = env.ibc?.store;
  // Other denoms (IBC vouchers) live in the IBC store's bank keys; without one, nobody holds any.
  const other = (a: Uint8Array, denom: string) => (store ? storedBalance(store, a, denom) : 0n);
  const setOther = (a: Uint8Array, denom: string, v: bigint) => {
    const k = hostKeys.balance(Buffer.from(a).toString('hex'), denom);
    if (v === 0n) store!.delete(k);
    else store!.set(k, v.toString());
  };
  let spend = 0n;
  const spent = new Map<string, bigint>();
  for (const c of total) {
    const have = c.denom === env.denom ? (sender?.balance ?? 0n) : other(from, c.denom);
    const need = c.amount + (c.denom === env.denom ? spend : (spent.get(c.denom) ?? 0n));
    if (have < need)
      throw new CosmosTxError(SdkCode.InsufficientFunds, `spendable balance ${have}${c.denom} is smaller than ${c.amount}${c.denom}: insufficient funds`);
    if (c.denom === env.denom) spend += c.amount;
    else spent.set(c.denom, need);
  }
  meter.consume(GAS.writeFlat + GAS.writePerByte * BALANCE_BYTES, 'WriteFlat');
  await state.putAccount(fromAddr, withBalance(sender, (sender?.balance ?? 0n) - spend));
  for (const [denom, v] of spent) setOther(from, denom, other(from, denom) - v);
  events.push(ev('coin_spent', ['spender', bech(from)], ['amount', coinsText(total)]));
  for (const o of outputs) {
    if (Buffer.compare(Buffer.from(o.to), FEE_COLLECTOR) === 0)
      throw new CosmosTxError(SdkCode.Unauthorized, `${bech(o.to)} is not allowed to receive funds: unauthorized`);
    const toAddr = new Address(Uint8Array.from(o.to));
    meter.consume(GAS.hasFlat + GAS.readFlat + GAS.readPerByte * BALANCE_BYTES + GAS.writeFlat + GAS.writePerByte * BALANCE_BYTES, 'WriteFlat');
    const recipient = await state.getAccount(toAddr);
    const add = o.coins.filter((c) => c.denom === env.denom).reduce((a, c) => a + c.amount, 0n);
    await state.putAccount(toAddr, withBalance(recipient, (recipient?.balance ?? 0n) + add));
    for (const c of o.coins) if (c.denom !== env.denom) setOther(o.to, c.denom, other(o.to, c.denom) + c.amount);
    events.push(ev('coin_received', ['receiver', bech(o.to)], ['amount', coinsText(o.coins)]));
    events.push(
      outputs.length === 1
        ? ev('transfer', ['recipient', bech(o.to)], ['sender', bech(from)], ['amount', coinsText(o.coins)])
        : ev('transfer', ['recipient', bech(o.to)], ['amount', coinsText(o.coins)]),
    );
  }
}

/** The accounts and the IBC store checkpointed together, as one SDK cache context. */
function withIbcCache(state: CosmosState & Partial<Checkpointing>, store: IbcStore | undefined): CosmosState & Partial<Checkpointing> {
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
function nativeBalances(state: CosmosState) {
  return {
    getBalance: async (a: Uint8Array) => (await state.getAccount(new Address(Uint8Array.from(a))))?.balance ?? 0n,
    setBalance: async (a: Uint8Array, amount: bigint) => {
      const addr = new Address(Uint8Array.from(a));
      await state.putAccount(addr, withBalance(await state.getAccount(addr), amount));
    },
  };
}

function withBalance(a: Account | undefined, balance: bigint): Account {
  if (a === undefined) return createAccount({ nonce: 0n, balance });
  const copy = createAccount({ nonce: a.nonce, balance });
  copy.storageRoot = a.storageRoot;
  copy.codeHash = a.codeHash;
  return copy;
}

function withNonce(a: Account | undefined, nonce: bigint): Account {
  const copy = createAccount({ nonce, balance: a?.balance ?? 0n });
  if (a !== undefined) {
    copy.storageRoot = a.storageRoot;
    copy.codeHash = a.codeHash;
  }
  return copy;
}

function ev(type: string, ...attrs: [string, string][]): AbciEvent {
  return { type, attributes: attrs.map(([key, value]) => ({ key, value, index: true })) };
}
