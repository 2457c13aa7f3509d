/**
 * The ante steps of a Cosmos EVM chain (REFERENCE-COSMOS §2.6), in its order: memo, timeout height,
 * min gas price and base fee, tx size gas, DEDUCT FEE, SET PUBKEY, sig gas, SIG VERIFY (sequence,
 * account number, chain id), INCREMENT SEQUENCE. Throws the SDK's error; the caller reverts.
 */
import { Address } from '@ethereumjs/util';
import type { AbciEvent } from '../../abci/types.js';
import { CosmosTxError, SdkCode } from '../../sdk/errors.js';
import { FEE_COLLECTOR } from './auth-registry.js';
import { withBalance, withNonce } from './cosmos-accounts.js';
import { ev } from './cosmos-bank-msgs.js';
import { MAX_MEMO_CHARACTERS, type CosmosChainEnv, type CosmosMode, type CosmosState } from './cosmos-exec.js';
import { ACCOUNT_BYTES, BALANCE_BYTES, GAS, type GasMeter } from './cosmos-gas.js';
import { coinsText, firstSigner, signedSizeBound, verifyCosmosSignature, type Coin, type DecodedCosmosTx } from './cosmos-tx.js';

export interface AnteInput {
  d: DecodedCosmosTx;
  env: CosmosChainEnv;
  state: CosmosState;
  mode: CosmosMode;
  meter: GasMeter;
  events: AbciEvent[];
  gasLimit: bigint;
  feeAmount: bigint;
  bech: (a: Uint8Array) => string;
  /** The signer (in simulate, the first message's), its account address and hex. */
  signer: Uint8Array;
  signerAddr: Address;
  signerHex: string;
}

export async function runAnte({ d, env, state, mode, meter, events, gasLimit, feeAmount, bech, signer, signerAddr, signerHex }: AnteInput): Promise<void> {
  const writes = mode === 'deliver';
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
  if (account === undefined && mode !== 'simulate') throw new CosmosTxError(SdkCode.UnknownAddress, `account ${bech(signer)} does not exist: unknown address`);
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
