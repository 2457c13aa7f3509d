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
import { Address, type Account } from '@ethereumjs/util';
import { MsgMultiSendResponse, MsgSendResponse } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import type { AbciEvent, ExecTxResult, ResponseCheckTx } from '../../abci/types.js';
import { toBech32 } from '../../crypto/bech32.js';
import { MultiDenomBank } from '../../ibc/bank.js';
import { runIbcMsg } from '../../ibc/handler.js';
import type { IbcStore } from '../../ibc/ibc-store.js';
import type { AuthRegistry } from './auth-registry.js';
import { runAnte } from './cosmos-ante.js';
import { nativeBalances, withIbcCache } from './cosmos-accounts.js';
import { ev, move } from './cosmos-bank-msgs.js';
import { GasMeter } from './cosmos-gas.js';
import { firstSigner, type DecodedCosmosTx } from './cosmos-tx.js';
import { CosmosTxError } from '../../sdk/errors.js';

exactSizeBuffers();

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
    await runAnte({ d, env, state, mode, meter, events, gasLimit, feeAmount, bech, signer, signerAddr, signerHex });
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
