/**
 * The Cosmos face of the EVM chain with stock cosmjs: StargateClient reads (chain id, height,
 * accounts, sequences, balances, txs) and SigningStargateClient sends from eth_secp256k1 keys
 * (DirectEthSecp256k1HdWallet: address = the 0x address) and secp256k1 keys (DirectSecp256k1HdWallet,
 * Secp256k1HdWallet with legacy Amino JSON), with explicit and "auto" fees. One balance, two faces:
 * a MsgSend changes eth_getBalance and an EVM transfer changes getBalance; the sequence is the nonce.
 */
import { Secp256k1HdWallet } from '@cosmjs/amino';
import { DirectEthSecp256k1HdWallet, DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient, StargateClient, type DeliverTxResponse } from '@cosmjs/stargate';
import { MsgMultiSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_KEY_0, signEthTransfer } from '../../src/app/fixtures/signed-txs.js';
import { toBech32, fromBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { createEip1193Provider } from '../../src/node/rpc-eth.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';

const DENOM = 'achainlet';
const PREFIX = 'chainlet';
const gasPrice = GasPrice.fromString(`2000000000${DENOM}`);
const fee = { amount: [{ denom: DENOM, amount: String(2_000_000_000n * 200_000n) }], gas: '200000' };
const OTHER_MNEMONIC =
  'copper push brief egg scan entry inform record adjust fossil boss egg comic alien upon aspect dry avoid interest fury window hint race symptom';

let node: ChainletNode;
let url: string;
let eth: ReturnType<typeof createEip1193Provider>;
const hex0x = (bech: string) => `0x${Buffer.from(fromBech32(bech).bytes).toString('hex')}`;
const ethBalance = async (bech: string) => BigInt((await eth.request({ method: 'eth_getBalance', params: [hex0x(bech), 'latest'] })) as string);

beforeAll(async () => {
  node = await startTestNode();
  url = node.urls.rpc!;
  eth = createEip1193Provider(node);
});

afterAll(async () => {
  eth?.close();
  await node?.stop();
});

describe('StargateClient reads the EVM chain’s Cosmos face', () => {
  it('chain id, height, account, sequence and balances of a dev account; a missing account is null', async () => {
    const client = await StargateClient.connect(url);
    const [acc] = await (await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: PREFIX })).getAccounts();
    expect(hex0x(acc!.address)).toBe(node.accounts[0]!.address.toLowerCase());
    expect(await client.getChainId()).toBe(node.chainId);
    expect(await client.getHeight()).toBeGreaterThanOrEqual(1);
    const account = await client.getAccount(acc!.address);
    // Genesis accounts are numbered in the genesis alloc's order (sorted by address), then the fee collector.
    expect(account).toMatchObject({ address: acc!.address, pubkey: null });
    const nonce = Number(await eth.request({ method: 'eth_getTransactionCount', params: [node.accounts[0]!.address, 'latest'] }));
    expect(await client.getSequence(acc!.address)).toEqual({ accountNumber: account!.accountNumber, sequence: nonce });
    const balance = await client.getBalance(acc!.address, DENOM);
    expect(BigInt(balance.amount)).toBe(await ethBalance(acc!.address));
    expect(await client.getAllBalances(acc!.address)).toEqual([balance]);
    expect(await client.getBalance(acc!.address, 'uatom')).toEqual({ denom: 'uatom', amount: '0' });
    const nobody = toBech32(PREFIX, new Uint8Array(20).fill(7));
    expect(await client.getAccount(nobody)).toBeNull();
    expect(await client.getAllBalances(nobody)).toEqual([]);
    client.disconnect();
  });
});

describe('SigningStargateClient sends on the EVM chain', () => {
  it('an eth_secp256k1 key sends with an explicit fee; both faces see it; the tx is found by getTx and searchTx', async () => {
    const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: PREFIX });
    const [from] = await wallet.getAccounts();
    const to = toBech32(PREFIX, new Uint8Array(20).fill(0xab));
    const client = await SigningStargateClient.connectWithSigner(url, wallet, { gasPrice, broadcastPollIntervalMs: 50 });
    const before = await ethBalance(from!.address);
    const seq = (await client.getSequence(from!.address)).sequence;
    const r = await client.sendTokens(from!.address, to, [{ denom: DENOM, amount: '12345' }], fee, 'hello');
    expect(r.code).toBe(0);
    expect(r.rawLog ?? '').toBe('');
    expect(r.msgResponses.map((m) => m.typeUrl)).toEqual(['/cosmos.bank.v1beta1.MsgSendResponse']);
    expect(await ethBalance(to)).toBe(12345n);
    expect(await ethBalance(from!.address)).toBe(before - 12345n - BigInt(fee.amount[0]!.amount));
    // The sequence is the EVM nonce, and the account now carries its eth_secp256k1 key.
    expect((await client.getSequence(from!.address)).sequence).toBe(seq + 1);
    expect(BigInt((await eth.request({ method: 'eth_getTransactionCount', params: [hex0x(from!.address), 'latest'] })) as string)).toBe(BigInt(seq + 1));
    const account = await client.getAccount(from!.address);
    expect(account?.pubkey?.type).toBe('os/PubKeyEthSecp256k1');
    // The SDK's events, in order.
    const types = r.events.map((e) => e.type);
    expect(types).toEqual(['coin_spent', 'coin_received', 'transfer', 'tx', 'tx', 'tx', 'message', 'coin_spent', 'coin_received', 'transfer']);
    const msg = r.events.find((e) => e.type === 'message')!;
    expect(msg.attributes).toEqual([
      { key: 'action', value: '/cosmos.bank.v1beta1.MsgSend' },
      { key: 'sender', value: from!.address },
      { key: 'module', value: 'bank' },
      { key: 'msg_index', value: '0' },
    ]);
    const found = await client.getTx(r.transactionHash);
    expect(found?.code).toBe(0);
    expect(found?.height).toBe(r.height);
    const search = await client.searchTx(`transfer.recipient='${to}'`);
    expect(search.map((t) => t.hash)).toContain(r.transactionHash);
    client.disconnect();
  });

  it('"auto" fees simulate first; a secp256k1 (ripemd160) key funded by an EVM transfer sends back, direct and Amino JSON', async () => {
    const direct = await DirectSecp256k1HdWallet.fromMnemonic(OTHER_MNEMONIC, { prefix: PREFIX });
    const [cosmosAcc] = await direct.getAccounts();
    // Fund it from the EVM face.
    const nonce = BigInt((await eth.request({ method: 'eth_getTransactionCount', params: [node.accounts[0]!.address, 'pending'] })) as string);
    const funding = signEthTransfer(DEV_KEY_0, hex0x(cosmosAcc!.address), 10n ** 18n, { nonce });
    const h = (await eth.request({ method: 'eth_sendRawTransaction', params: [`0x${Buffer.from(funding).toString('hex')}`] })) as string;
    for (let i = 0; i < 200 && (await eth.request({ method: 'eth_getTransactionReceipt', params: [h] })) === null; i++)
      await new Promise((r) => setTimeout(r, 10));
    const reader = await StargateClient.connect(url);
    expect((await reader.getBalance(cosmosAcc!.address, DENOM)).amount).toBe(String(10n ** 18n));

    const client = await SigningStargateClient.connectWithSigner(url, direct, { gasPrice, broadcastPollIntervalMs: 50 });
    const to = toBech32(PREFIX, new Uint8Array(20).fill(0xcd));
    const auto = await client.sendTokens(cosmosAcc!.address, to, [{ denom: DENOM, amount: '500' }], 'auto');
    expect(auto.code).toBe(0);
    expect((await reader.getAccount(cosmosAcc!.address))?.pubkey?.type).toBe('tendermint/PubKeySecp256k1');
    client.disconnect();

    const amino = await Secp256k1HdWallet.fromMnemonic(OTHER_MNEMONIC, { prefix: PREFIX });
    const aminoClient = await SigningStargateClient.connectWithSigner(url, amino, { gasPrice, broadcastPollIntervalMs: 50 });
    const viaAmino = await aminoClient.sendTokens(cosmosAcc!.address, to, [{ denom: DENOM, amount: '700' }], fee);
    expect(viaAmino.code).toBe(0);
    expect((await reader.getBalance(to, DENOM)).amount).toBe('1200');
    aminoClient.disconnect();
    reader.disconnect();
  });

  it('"auto" fees work for an eth_secp256k1 wallet too (cosmjs simulates it with a secp256k1 key URL)', async () => {
    const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: PREFIX });
    const [from] = await wallet.getAccounts();
    const client = await SigningStargateClient.connectWithSigner(url, wallet, { gasPrice, broadcastPollIntervalMs: 50 });
    const gas = await client.simulate(
      from!.address,
      [{ typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: { fromAddress: from!.address, toAddress: from!.address, amount: [{ denom: DENOM, amount: '1' }] } }],
      '',
    );
    expect(gas).toBeGreaterThan(21_000);
    const r = await client.sendTokens(from!.address, toBech32(PREFIX, new Uint8Array(20).fill(0x5a)), [{ denom: DENOM, amount: '3' }], 'auto');
    expect(r.code).toBe(0);
    expect(r.gasUsed).toBeLessThanOrEqual(r.gasWanted);
    client.disconnect();
  });

  it('MsgMultiSend pays several recipients from one input', async () => {
    const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: PREFIX });
    const [from] = await wallet.getAccounts();
    const client = await SigningStargateClient.connectWithSigner(url, wallet, { gasPrice, broadcastPollIntervalMs: 50 });
    const a = toBech32(PREFIX, new Uint8Array(20).fill(0x11));
    const b = toBech32(PREFIX, new Uint8Array(20).fill(0x22));
    const msg = {
      typeUrl: '/cosmos.bank.v1beta1.MsgMultiSend',
      value: MsgMultiSend.fromPartial({
        inputs: [{ address: from!.address, coins: [{ denom: DENOM, amount: '30' }] }],
        outputs: [
          { address: a, coins: [{ denom: DENOM, amount: '10' }] },
          { address: b, coins: [{ denom: DENOM, amount: '20' }] },
        ],
      }),
    };
    const r: DeliverTxResponse = await client.signAndBroadcast(from!.address, [msg], fee);
    expect(r.code).toBe(0);
    expect(await ethBalance(a)).toBe(10n);
    expect(await ethBalance(b)).toBe(20n);
    client.disconnect();
  });

  it('failures answer the SDK’s codes and texts: insufficient funds, wrong sequence, low fee, bad bytes', async () => {
    const [from] = await (await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: PREFIX })).getAccounts();
    const signer = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: PREFIX });
    const client = await SigningStargateClient.connectWithSigner(url, signer, { gasPrice, broadcastPollIntervalMs: 50 });
    const to = toBech32(PREFIX, new Uint8Array(20).fill(0xef));
    // More than the balance: admitted (the fee is payable), fails in the block with code 5; fee and sequence are kept.
    const seq = (await client.getSequence(from!.address)).sequence;
    const poor = await client.sendTokens(from!.address, to, [{ denom: DENOM, amount: (10n ** 40n).toString() }], fee);
    expect(poor.code).toBe(5);
    expect(poor.rawLog).toMatch(
      /^failed to execute message; message index: 0: spendable balance \d+achainlet is smaller than 10{40}achainlet: insufficient funds$/,
    );
    expect((await client.getSequence(from!.address)).sequence).toBe(seq + 1);
    // A fee below the base fee: refused at CheckTx with code 13.
    await expect(
      client.sendTokens(from!.address, to, [{ denom: DENOM, amount: '1' }], { amount: [{ denom: DENOM, amount: '1' }], gas: '200000' }),
    ).rejects.toThrow(/code 13.*gas prices too low/);
    // A stale sequence: code 32.
    const { accountNumber } = await client.getSequence(from!.address);
    const signed = await client.sign(
      from!.address,
      [{ typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: { fromAddress: from!.address, toAddress: to, amount: [{ denom: DENOM, amount: '1' }] } }],
      fee,
      '',
      { accountNumber, sequence: seq, chainId: node.chainId },
    );
    await expect(client.broadcastTx(TxRaw.encode(signed).finish())).rejects.toThrow(
      /code 32.*account sequence mismatch, expected \d+, got \d+: incorrect account sequence/,
    );
    // The same signature with a high S (n - s): refused as malleable.
    const good = await client.sign(
      from!.address,
      [{ typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: { fromAddress: from!.address, toAddress: to, amount: [{ denom: DENOM, amount: '1' }] } }],
      fee,
      '',
      { accountNumber, sequence: (await client.getSequence(from!.address)).sequence, chainId: node.chainId },
    );
    const sig = good.signatures[0]!;
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const highS = N - BigInt(`0x${Buffer.from(sig.subarray(32)).toString('hex')}`);
    const malleable = Uint8Array.from([...sig.subarray(0, 32), ...Buffer.from(highS.toString(16).padStart(64, '0'), 'hex')]);
    await expect(client.broadcastTx(TxRaw.encode({ ...good, signatures: [malleable] }).finish())).rejects.toThrow(
      /code 4.*signature verification failed; please verify account number \(\d+\) and chain-id \(chainlet_9000-1\): \(signature is not in lower-S form\): unauthorized/,
    );
    // Signed for another chain id: the signature does not verify.
    const elsewhere = await client.sign(
      from!.address,
      [{ typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: { fromAddress: from!.address, toAddress: to, amount: [{ denom: DENOM, amount: '1' }] } }],
      fee,
      '',
      { accountNumber, sequence: (await client.getSequence(from!.address)).sequence, chainId: 'other-1' },
    );
    await expect(client.broadcastTx(TxRaw.encode(elsewhere).finish())).rejects.toThrow(/code 4.*unable to verify single signer signature/);
    // Bytes that are no tx.
    await expect(client.broadcastTx(Uint8Array.from([0x0a, 0x05, 1, 2]))).rejects.toThrow(/code 2.*tx parse error/);
    client.disconnect();
  });

  it('a min gas price above the fee is refused at CheckTx with the SDK’s text', async () => {
    const strict = await startTestNode({ config: { evm: { minGasPrice: 10_000_000_000n } } });
    try {
      const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: PREFIX });
      const [from] = await wallet.getAccounts();
      const client = await SigningStargateClient.connectWithSigner(strict.urls.rpc!, wallet, { broadcastPollIntervalMs: 50 });
      await expect(client.sendTokens(from!.address, from!.address, [{ denom: DENOM, amount: '1' }], fee)).rejects.toThrow(
        /code 13.*provided fee < minimum global fee \(400000000000000achainlet < 2000000000000000achainlet\)\. Please increase the gas price\.: insufficient fee/,
      );
      await expect(client.sendTokens(from!.address, from!.address, [{ denom: DENOM, amount: '1' }], { amount: [], gas: '200000' })).rejects.toThrow(
        /code 13.*fee not provided/,
      );
      client.disconnect();
    } finally {
      await strict.stop();
    }
  });
});
