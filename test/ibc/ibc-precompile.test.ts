/**
 * The ICS-20 precompile at Cosmos EVM's address 0x…0802, called with viem: `simulateContract`
 * answers the packet sequence, `writeContract` (gas estimated through the same precompile) escrows
 * the native denom from the EVM balance and logs IBCTransfer, the relayer delivers a voucher on
 * the hub, and `/v2/tx/status` of the EVM tx follows the transfer to STATE_COMPLETED_SUCCESS.
 * A call through a contract, or for another sender, reverts.
 */
import { createPublicClient, createWalletClient, defineChain, http, parseAbi, parseEventLogs } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { StargateClient } from '@cosmjs/stargate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBech32 } from '../../src/crypto/bech32.js';
import { denomHashHex, escrowAddress } from '../../src/ibc/keys.js';
import type { HubChain } from '../../src/chains/hub/start.js';
import type { Network } from '../../src/network/network.js';
import { startEvmHubNetwork } from '../helpers/ibc-network.js';

const ICS20 = '0x0000000000000000000000000000000000000802' as const;
const abi = parseAbi([
  'struct Height { uint64 revisionNumber; uint64 revisionHeight; }',
  'function transfer(string sourcePort, string sourceChannel, string denom, uint256 amount, address sender, string receiver, Height timeoutHeight, uint64 timeoutTimestamp, string memo) returns (uint64 nextSequence)',
  'event IBCTransfer(address indexed sender, string indexed receiver, string sourcePort, string sourceChannel, string denom, uint256 amount, string memo)',
]);

let network: Network;
let hub: HubChain;

beforeAll(async () => {
  ({ network, hub } = await startEvmHubNetwork());
});
afterAll(async () => {
  await network?.stop();
});

function clients(index: number) {
  const evm = network.evm!;
  const chain = defineChain({
    id: evm.evmChainId,
    name: 'chainlet',
    nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 },
    rpcUrls: { default: { http: [evm.urls.jsonRpc!] } },
  });
  const account = privateKeyToAccount(evm.accounts[index]!.privateKey as `0x${string}`);
  return { account, pub: createPublicClient({ chain, transport: http() }), wallet: createWalletClient({ account, chain, transport: http() }) };
}

describe('the ICS-20 precompile on the EVM chain', () => {
  it('sends the native denom to the hub from viem; the status of the EVM tx follows the transfer', async () => {
    const { account, pub, wallet } = clients(0);
    const denom = network.evm!.internals.app.evm.denom;
    const receiver = hub.devAddresses[6]!;
    const args = [
      'transfer',
      'channel-0',
      denom,
      5n * 10n ** 17n,
      account.address,
      receiver,
      { revisionNumber: 0n, revisionHeight: 0n },
      BigInt(Date.now() + 600_000) * 1_000_000n,
      'via precompile',
    ] as const;
    const { result } = await pub.simulateContract({ address: ICS20, abi, functionName: 'transfer', args, account });
    expect(result).toBe(1n);
    const before = await pub.getBalance({ address: account.address });
    const hash = await wallet.writeContract({ address: ICS20, abi, functionName: 'transfer', args });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const [log] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'IBCTransfer' });
    expect(log!.args).toMatchObject({
      sender: account.address,
      sourcePort: 'transfer',
      sourceChannel: 'channel-0',
      denom,
      amount: 5n * 10n ** 17n,
      memo: 'via precompile',
    });
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(await pub.getBalance({ address: account.address })).toBe(before - fee - 5n * 10n ** 17n);
    const escrow = `0x${Buffer.from(escrowAddress('transfer', 'channel-0')).toString('hex')}` as const;
    expect(await pub.getBalance({ address: escrow })).toBe(5n * 10n ** 17n);

    await network.relayer!.idle();
    const h = await StargateClient.connect(hub.urls.rpc!);
    const voucher = `ibc/${denomHashHex(`transfer/channel-0/${denom}`)}`;
    expect(await h.getBalance(receiver, voucher)).toEqual({ denom: voucher, amount: (5n * 10n ** 17n).toString() });
    h.disconnect();

    const url = network.urls.routing!;
    await fetch(`${url}/v2/tx/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain_id: String(network.evm!.evmChainId), tx_hash: hash }),
    });
    type ChainTx = { chain_id: string; tx_hash: string; explorer_link: string };
    const status = (await (await fetch(`${url}/v2/tx/status?chain_id=${network.evm!.evmChainId}&tx_hash=${hash}`)).json()) as {
      state: string;
      transfers: {
        transfer_sequence: {
          ibc_transfer: { state: string; from_chain_id: string; to_chain_id: string; packet_txs: { send_tx: ChainTx; receive_tx: ChainTx } };
        }[];
      }[];
    };
    expect(status.state).toBe('STATE_COMPLETED_SUCCESS');
    const transfer = status.transfers[0]!.transfer_sequence[0]!.ibc_transfer;
    expect(transfer).toMatchObject({ state: 'TRANSFER_SUCCESS', from_chain_id: network.evm!.chainId, to_chain_id: hub.chainId });
    // The EVM tx is named by the 0x hash its sender knows; the hub's (Cosmos) receive by its CometBFT hash.
    expect(transfer.packet_txs.send_tx).toMatchObject({ chain_id: network.evm!.chainId, tx_hash: hash, explorer_link: `${url}/explorer/tx/${hash}` });
    expect(transfer.packet_txs.receive_tx.tx_hash).toMatch(/^[0-9A-F]{64}$/);
  });

  it('anvil_mine of empty blocks and anvil_setBalance keep the EVM state readable once the IBC store has entries', async () => {
    const { account, pub } = clients(0);
    const before = await pub.getBalance({ address: account.address });
    await pub.request({ method: 'anvil_mine' as never, params: ['0x5'] as never });
    expect(await pub.getBalance({ address: account.address })).toBe(before);
    const other = network.evm!.accounts[8]!.address as `0x${string}`;
    await pub.request({ method: 'anvil_setBalance' as never, params: [other, '0x1234'] as never });
    expect(await pub.getBalance({ address: other })).toBe(0x1234n);
    await network.evm!.mine(1);
    expect(await pub.getBalance({ address: account.address })).toBe(before);
  });

  it('reverts for a sender that is not the caller, and changes nothing', async () => {
    const { account, pub } = clients(1);
    const other = network.evm!.accounts[2]!.address as `0x${string}`;
    const args = [
      'transfer',
      'channel-0',
      network.evm!.internals.app.evm.denom,
      1n,
      other,
      hub.devAddresses[6]!,
      { revisionNumber: 0n, revisionHeight: 0n },
      BigInt(Date.now() + 600_000) * 1_000_000n,
      '',
    ] as const;
    await expect(pub.simulateContract({ address: ICS20, abi, functionName: 'transfer', args, account })).rejects.toThrow(/is not the caller/);
    const bad = [
      'transfer',
      'channel-9',
      network.evm!.internals.app.evm.denom,
      1n,
      account.address,
      hub.devAddresses[6]!,
      { revisionNumber: 0n, revisionHeight: 0n },
      BigInt(Date.now() + 600_000) * 1_000_000n,
      '',
    ] as const;
    await expect(pub.simulateContract({ address: ICS20, abi, functionName: 'transfer', args: bad, account })).rejects.toThrow(/channel not found/);
    const own = [
      'transfer',
      'channel-0',
      network.evm!.internals.app.evm.denom,
      1n,
      account.address,
      hub.devAddresses[6]!,
      { revisionNumber: 0n, revisionHeight: 0n },
      BigInt(Date.now() + 600_000) * 1_000_000n,
      '',
    ] as const;
    await expect(pub.simulateContract({ address: ICS20, abi, functionName: 'transfer', args: own, account, value: 1n } as never)).rejects.toThrow(
      /not payable/,
    );
  });
});
