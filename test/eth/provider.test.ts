/**
 * The in-process EIP-1193 provider (no HTTP) under viem's custom transport, and the behaviour of
 * the eth methods beyond plain reads: block hashes the same everywhere and chained, block tags and
 * EIP-1898 objects, historical state, pending nonces and pending txs, state overrides,
 * eth_simulateV1, eth_getProof, eth_createAccessList, eth_feeHistory, web3/net.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPublicClient, createWalletClient, custom, erc20Abi, keccak256, toHex, type Address, type Hex } from 'viem';
import { createMPTFromProof } from '@ethereumjs/mpt';
import { ERC20_BYTECODE, erc20TransferData } from '../../src/app/fixtures/erc20.js';
import { createEip1193Provider } from '../../src/node/rpc-eth.js';
import { ProviderRpcError, type Eip1193Provider } from '../../src/rpc/eth/provider.js';
import { privateKeyToAccount } from 'viem/accounts';
import { account0, asm, chainlet, DEV, hex, startEthTestNode, waitFor, type EthTestNode } from './helpers.js';

const deployAbi = [...erc20Abi, { type: 'constructor', inputs: [{ name: 'supply', type: 'uint256' }], stateMutability: 'nonpayable' }] as const;
const X = '0x000000000000000000000000000000000000aa01';

let t: EthTestNode;
let provider: Eip1193Provider;
let token: Address;
let deployBlock: bigint;
const pub = () => createPublicClient({ chain: chainlet, transport: custom(provider), pollingInterval: 20 });
const wallet = () => createWalletClient({ chain: chainlet, transport: custom(provider), account: account0 });
const req = <T = unknown>(method: string, params: unknown[] = []) => provider.request({ method, params }) as Promise<T>;

beforeAll(async () => {
  t = await startEthTestNode();
  provider = createEip1193Provider(t.node);
  const hash = await wallet().deployContract({ abi: deployAbi, bytecode: `0x${ERC20_BYTECODE}`, args: [10n ** 24n] });
  const r = await pub().waitForTransactionReceipt({ hash });
  token = r.contractAddress!;
  deployBlock = r.blockNumber;
  for (let i = 0; i < 2; i++) {
    const h = await wallet().writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [DEV[1]!.address as Address, 10n] });
    await pub().waitForTransactionReceipt({ hash: h });
  }
});

afterAll(async () => {
  provider?.close();
  await t?.stop();
});

describe('in-process provider', () => {
  it('serves viem through custom(provider) and throws ProviderRpcError', async () => {
    expect(await pub().getChainId()).toBe(9000);
    expect(await pub().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [DEV[1]!.address as Address] })).toBe(20n);
    const err = await req('eth_nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderRpcError);
    expect(err).toMatchObject({ code: -32601 });
  });

  it('delivers subscriptions as message events', async () => {
    const got: unknown[] = [];
    const listener = (m: unknown) => void got.push(m);
    provider.on('message', listener);
    const id = await req<string>('eth_subscribe', ['newHeads']);
    const h = await wallet().sendTransaction({ to: DEV[8]!.address as Address, value: 1n });
    const r = await pub().waitForTransactionReceipt({ hash: h });
    await waitFor(async () => got[0]);
    provider.removeListener('message', listener);
    expect(await req('eth_unsubscribe', [id])).toBe(true);
    expect(got[0]).toMatchObject({ type: 'eth_subscription', data: { subscription: id, result: { number: toHex(r.blockNumber), hash: r.blockHash } } });
  });
});

describe('the EVM view of blocks', () => {
  it('one hash per block in blocks, receipts, logs and tx lookups; parent hashes chain', async () => {
    const latest = await pub().getBlockNumber();
    let prevHash = (await pub().getBlock({ blockNumber: 0n })).hash;
    expect(prevHash).toBe(`0x${'00'.repeat(32)}`);
    for (let n = 1n; n <= latest; n++) {
      const b = await pub().getBlock({ blockNumber: n, includeTransactions: true });
      expect(b.parentHash).toBe(prevHash);
      // The hash is CometBFT's block id hash of that height; the parent its last_block_id.
      const meta = (await t.node.internals.blockStore.loadBlockMeta(Number(n)))!;
      expect(b.hash).toBe(hex(meta.blockId.hash));
      const last = meta.header.lastBlockId.hash;
      expect(b.parentHash).toBe(last.length === 0 ? `0x${'00'.repeat(32)}` : hex(last));
      expect((await pub().getBlock({ blockHash: b.hash })).number).toBe(n);
      const receipts = await req<{ blockHash: string; transactionHash: string; logs: { blockHash: string }[]; cumulativeGasUsed: string }[]>(
        'eth_getBlockReceipts',
        [toHex(n)],
      );
      expect(receipts.length).toBe(b.transactions.length);
      for (const r of receipts) {
        expect(r.blockHash).toBe(b.hash);
        for (const l of r.logs) expect(l.blockHash).toBe(b.hash);
        expect((await req<{ blockHash: string }>('eth_getTransactionByHash', [r.transactionHash])).blockHash).toBe(b.hash);
      }
      prevHash = b.hash;
    }
  });

  it('block tags, EIP-1898 objects and historical state', async () => {
    const latest = await req<{ hash: string; number: string }>('eth_getBlockByNumber', ['latest', false]);
    for (const tag of ['finalized', 'safe', 'pending']) expect((await req<{ hash: string }>('eth_getBlockByNumber', [tag, false])).hash).toBe(latest.hash);
    expect((await req<{ number: string }>('eth_getBlockByNumber', ['earliest', false])).number).toBe('0x0');
    const balanceOfData = `0x70a08231${DEV[1]!.address.slice(2).toLowerCase().padStart(64, '0')}`;
    const atDeploy = await req<string>('eth_call', [{ to: token, input: balanceOfData }, toHex(deployBlock)]);
    const atHash = await req<string>('eth_call', [{ to: token, input: balanceOfData }, { blockHash: latest.hash }]);
    expect(BigInt(atDeploy)).toBe(0n);
    expect(BigInt(atHash)).toBe(20n);
    expect(await req('eth_getCode', [token, toHex(deployBlock - 1n)])).toBe('0x');
    expect(await req('eth_getCode', [token, { blockNumber: toHex(deployBlock) }])).toMatch(/^0x6080/);
    const err = await req('eth_getBalance', [DEV[0]!.address, { blockHash: `0x${'ab'.repeat(32)}` }]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -32000, message: 'header not found' });
  });

  it('eth_getTransactionLogs and uncles', async () => {
    const logs = await pub().getLogs({ address: token, fromBlock: 0n });
    const txLogs = await req<unknown[]>('eth_getTransactionLogs', [logs[0]!.transactionHash]);
    expect(txLogs).toHaveLength(1);
    expect(await req('eth_getUncleCountByBlockNumber', ['latest'])).toBe('0x0');
    expect(await req('eth_getUncleByBlockNumberAndIndex', ['latest', '0x0'])).toBeNull();
  });
});

describe('pending txs', () => {
  it('pending nonce counts the mempool; a pending tx is found with null block fields', async () => {
    const node = t.node;
    node.internals.consensus.setMode('manual');
    try {
      const from = DEV[6]!.address;
      const nonce = Number(await req<string>('eth_getTransactionCount', [from, 'latest']));
      const h1 = await req<string>('eth_sendTransaction', [{ from, to: DEV[9]!.address, value: '0x1' }]);
      const h2 = await req<string>('eth_sendTransaction', [{ from, to: DEV[9]!.address, value: '0x1' }]);
      expect(Number(await req<string>('eth_getTransactionCount', [from, 'pending']))).toBe(nonce + 2);
      expect(Number(await req<string>('eth_getTransactionCount', [from, 'latest']))).toBe(nonce);
      const tx = await req<Record<string, unknown>>('eth_getTransactionByHash', [h2]);
      expect(tx).toMatchObject({ hash: h2, blockHash: null, blockNumber: null, transactionIndex: null, nonce: toHex(nonce + 1) });
      expect(await req('eth_getTransactionReceipt', [h1])).toBeNull();
      await node.mine(1);
      type Receipt = {
        status: string;
        blockHash: string;
        gasUsed: string;
        cumulativeGasUsed: string;
        effectiveGasPrice: string;
        type: string;
        transactionIndex: string;
      };
      const r1 = await req<Receipt>('eth_getTransactionReceipt', [h1]);
      const r2 = await req<Receipt>('eth_getTransactionReceipt', [h2]);
      expect(r2).toMatchObject({ status: '0x1', blockHash: r1.blockHash, transactionIndex: '0x1', type: '0x2' });
      // Both in one block: cumulative gas sums the block's receipts in order.
      expect(BigInt(r1.cumulativeGasUsed)).toBe(BigInt(r1.gasUsed));
      expect(BigInt(r2.cumulativeGasUsed)).toBe(BigInt(r1.gasUsed) + BigInt(r2.gasUsed));
      // eth_sendTransaction's fees: tip 1 gwei under a cap of 2 × base fee + tip, so the price is base fee + tip.
      const block = await req<{ baseFeePerGas: string }>('eth_getBlockByHash', [r1.blockHash, false]);
      expect(BigInt(r1.effectiveGasPrice)).toBe(BigInt(block.baseFeePerGas) + 1_000_000_000n);
    } finally {
      node.internals.consensus.setMode('automine');
    }
  });
});

describe('calls beyond the basics', () => {
  it('state overrides: balance, code, state and stateDiff', async () => {
    const code = asm('PUSH0 SLOAD PUSH0 MSTORE PUSH1 32 PUSH0 RETURN');
    const slot0 = `0x${'00'.repeat(32)}`;
    const seven = `0x${'00'.repeat(31)}07`;
    expect(BigInt(await req<string>('eth_call', [{ to: X }, 'latest', { [X]: { code, state: { [slot0]: seven } } }]))).toBe(7n);
    expect(BigInt(await req<string>('eth_call', [{ to: X }, 'latest', { [X]: { code, stateDiff: { [slot0]: seven } } }]))).toBe(7n);
    const bal = asm('CALLER BALANCE PUSH0 MSTORE PUSH1 32 PUSH0 RETURN');
    expect(
      BigInt(await req<string>('eth_call', [{ from: DEV[7]!.address, to: X }, 'latest', { [X]: { code: bal }, [DEV[7]!.address]: { balance: '0x2a' } }])),
    ).toBe(42n);
    const both = await req('eth_call', [{ to: X }, 'latest', { [X]: { state: {}, stateDiff: {} } }]).catch((e: unknown) => e);
    expect(both).toMatchObject({ code: -32602 });
  });

  it('EIP-7702 authorization lists in calls and estimates', async () => {
    const authority = privateKeyToAccount(DEV[7]!.privateKey as Hex);
    const nonce = Number(await req<string>('eth_getTransactionCount', [authority.address, 'latest']));
    const auth = await authority.signAuthorization({ chainId: 9000, address: X as Address, nonce });
    const list = [{ chainId: '0x2328', address: X, nonce: toHex(nonce), yParity: toHex(auth.yParity!), r: auth.r, s: auth.s }];
    const code = asm('PUSH1 42 PUSH0 MSTORE PUSH1 32 PUSH0 RETURN');
    const args = { from: DEV[0]!.address, to: authority.address, authorizationList: list };
    expect(BigInt(await req<string>('eth_call', [args, 'latest', { [X]: { code } }]))).toBe(42n);
    expect(await req('eth_call', [{ from: DEV[0]!.address, to: authority.address }, 'latest', { [X]: { code } }])).toBe('0x');
    const gas = BigInt(await req<string>('eth_estimateGas', [args, 'latest', { [X]: { code } }]));
    expect(gas).toBeGreaterThan(21_000n + 25_000n - 12_500n);
  });

  it('a type-4 (EIP-7702) tx is mined and shown with its authorization list', async () => {
    const authority = privateKeyToAccount(DEV[8]!.privateKey as Hex);
    const nonce = Number(await req<string>('eth_getTransactionCount', [authority.address, 'latest']));
    // Sent by the authority itself: the authorization nonce is the one after the tx's own.
    // Delegates to a codeless address, so calling the authority runs no code and succeeds.
    const delegate = DEV[9]!.address as Address;
    const authorization = await authority.signAuthorization({ chainId: 9000, address: delegate, nonce: nonce + 1 });
    const w = createWalletClient({ chain: chainlet, transport: custom(provider), account: authority });
    const hash = await w.sendTransaction({ authorizationList: [authorization], to: authority.address, data: '0x' });
    const receipt = await pub().waitForTransactionReceipt({ hash });
    expect(receipt).toMatchObject({ status: 'success', type: 'eip7702' });
    const tx = await pub().getTransaction({ hash });
    expect(tx.type).toBe('eip7702');
    expect(tx.authorizationList).toEqual([expect.objectContaining({ address: delegate.toLowerCase(), chainId: 9000, nonce: nonce + 1 })]);
    // The delegation designator 0xef0100 ‖ delegate is now the authority's code.
    expect(await req('eth_getCode', [authority.address, 'latest'])).toBe(`0xef0100${delegate.slice(2).toLowerCase()}`);
  });

  it('eth_simulateV1 carries state across calls and blocks, with per-call errors', async () => {
    const from = DEV[0]!.address;
    const transfer = (to: string, v: bigint) => ({ from, to: token, input: hex(erc20TransferData(to, v)) });
    const balanceOf = (a: string) => ({ to: token, input: `0x70a08231${a.slice(2).toLowerCase().padStart(64, '0')}` });
    const out = await req<{ number: string; calls: { status: string; returnData: string; error?: { code: number; message: string } }[] }[]>('eth_simulateV1', [
      {
        blockStateCalls: [
          { calls: [transfer(DEV[8]!.address, 5n), balanceOf(DEV[8]!.address)] },
          {
            calls: [balanceOf(DEV[8]!.address), { from: DEV[8]!.address, to: token, input: hex(erc20TransferData(from, 6n)) }, { from, to: X }],
            stateOverrides: { [X]: { code: asm('INVALID') } },
          },
        ],
      },
      'latest',
    ]);
    expect(out).toHaveLength(2);
    expect(BigInt(out[1]!.number)).toBe(BigInt(out[0]!.number) + 1n);
    expect(out[0]!.calls[0]!.status).toBe('0x1');
    expect(BigInt(out[0]!.calls[1]!.returnData)).toBe(5n);
    expect(BigInt(out[1]!.calls[0]!.returnData)).toBe(5n);
    expect(out[1]!.calls[1]).toMatchObject({ status: '0x0', error: { code: 3, message: 'execution reverted: insufficient balance' } });
    expect(out[1]!.calls[2]).toMatchObject({ status: '0x0', error: { code: -32015 } });
    // Nothing reached the chain.
    expect(BigInt(await req<string>('eth_call', [balanceOf(DEV[8]!.address)]))).toBe(0n);
  });

  it('eth_getProof verifies against the block state root', async () => {
    const block = await req<{ stateRoot: Hex; number: string }>('eth_getBlockByNumber', ['latest', false]);
    const proof = await req<{ accountProof: Hex[]; storageHash: Hex; storageProof: { key: string; value: string; proof: Hex[] }[] }>('eth_getProof', [
      token,
      ['0x0'],
      block.number,
    ]);
    const trie = await createMPTFromProof(
      proof.accountProof.map((p) => Buffer.from(p.slice(2), 'hex')),
      { useKeyHashing: true },
    );
    expect(Buffer.from(trie.root()).toString('hex')).toBe(block.stateRoot.slice(2));
    expect(BigInt(proof.storageProof[0]!.value)).toBe(10n ** 24n);
  });

  it('eth_createAccessList lists the token slots the transfer touches', async () => {
    const r = await req<{ accessList: { address: string; storageKeys: string[] }[]; gasUsed: string }>('eth_createAccessList', [
      { from: DEV[0]!.address, to: token, input: hex(erc20TransferData(DEV[2]!.address, 1n)) },
    ]);
    const entry = r.accessList.find((e) => e.address === token.toLowerCase())!;
    const slotOf = (a: string) => keccak256(`0x${a.slice(2).toLowerCase().padStart(64, '0')}${'01'.padStart(64, '0')}`);
    expect(entry.storageKeys.sort()).toEqual([slotOf(DEV[0]!.address), slotOf(DEV[2]!.address)].sort());
    expect(BigInt(r.gasUsed)).toBeGreaterThan(21_000n);
  });

  it('eth_feeHistory, gas price and the small namespaces', async () => {
    const fh = await req<{ oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[]; reward: string[][] }>('eth_feeHistory', [
      '0x3',
      'latest',
      [25, 75],
    ]);
    expect(fh.baseFeePerGas).toHaveLength(4);
    expect(fh.gasUsedRatio).toHaveLength(3);
    expect(fh.reward).toHaveLength(3);
    expect(fh.reward[2]).toHaveLength(2);
    expect(BigInt(await req<string>('eth_gasPrice'))).toBeGreaterThan(BigInt(await req<string>('eth_maxPriorityFeePerGas')));
    expect(await req('eth_syncing')).toBe(false);
    expect(await req('net_listening')).toBe(true);
    expect(await req('net_peerCount')).toBe(0);
    expect(await req('web3_sha3', ['0x68656c6c6f'])).toBe(keccak256('0x68656c6c6f'));
    // The devnet profile serves Anvil's methods and says so first, so Hardhat and Foundry tooling accept it.
    expect(await req('web3_clientVersion')).toMatch(/^anvil-compatible Chainlet\/v\d/);
  });
});

describe('one Ethereum env per node', () => {
  const overHttp = async <T>(method: string, params: unknown[]) => {
    const r = await fetch(t.url!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return (await r.json()) as { result?: T; error?: { code: number; message: string } };
  };

  it('a filter installed through a provider is polled over HTTP and through another provider with the same id', async () => {
    const other = createEip1193Provider(t.node);
    let closed = false;
    try {
      const id = await req<string>('eth_newBlockFilter');
      const [height] = await t.node.mine(1);
      const block = await req<{ hash: string }>('eth_getBlockByNumber', [toHex(height!), false]);
      const changes = await overHttp<string[]>('eth_getFilterChanges', [id]);
      expect(changes.error).toBeUndefined();
      expect(changes.result).toContain(block.hash);
      expect(Array.isArray(await other.request({ method: 'eth_getFilterChanges', params: [id] }))).toBe(true);
      expect(await other.request({ method: 'eth_uninstallFilter', params: [id] })).toBe(true);
      expect((await overHttp<boolean>('eth_uninstallFilter', [id])).result).toBe(false);

      // Closing a provider ends its subscriptions, not the node's filters.
      const kept = (await other.request({ method: 'eth_newBlockFilter', params: [] })) as string;
      other.close();
      closed = true;
      expect((await overHttp<string[]>('eth_getFilterChanges', [kept])).error).toBeUndefined();
      expect(await req('eth_uninstallFilter', [kept])).toBe(true);
    } finally {
      if (!closed) other.close();
    }
  });

  it("creating a provider builds no new env or call service: its calls run on the node's", async () => {
    const service = t.node.internals.eth;
    const call = vi.spyOn(service.env.calls, 'call');
    const other = createEip1193Provider(t.node);
    try {
      expect(t.node.internals.eth).toBe(service);
      await other.request({ method: 'eth_call', params: [{ to: token, data: '0x18160ddd' }, 'latest'] });
      expect(call).toHaveBeenCalledTimes(1);
    } finally {
      call.mockRestore();
      other.close();
    }
  });
});
