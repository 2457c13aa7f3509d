/**
 * The default network (EVM chain, hub, SVM chain, the relayer between the first two) does no
 * background work while nothing happens: no timer fires repeatedly over an idle stretch. Slots of
 * the SVM chain are read from the clock, node:http's connection checks stop without connections,
 * the relayer wakes only for blocks while it tracks packets. What users see stays: the SVM slot
 * still follows the wall clock.
 */
import { createHook, executionAsyncResource } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import type { SvmChain } from '../../src/chains/svm/start.js';
import type { ChainletNode } from '../../src/node/node.js';
import type { Network } from '../../src/network/network.js';
import { startEvmHubNetwork } from '../helpers/ibc-network.js';

let network: Network;
let svm: SvmChain;
beforeAll(async () => {
  ({ network } = await startEvmHubNetwork([{ kind: 'svm', rpc: '127.0.0.1:0', ws: '127.0.0.1:0', accounts: 2 }]));
  svm = network.chains.find((c): c is SvmChain => c.kind === 'svm')!;
}, 60_000);
afterAll(async () => {
  await network?.stop();
});

describe('an idle network', () => {
  it('fires no timer repeatedly, and the SVM slot still follows the wall clock', async () => {
    const slotBefore = svm.height;
    const t0 = Date.now();
    // Let the start's own one-shot work (the relayer's handshake tail, first blocks) settle.
    await new Promise((r) => setTimeout(r, 300));
    // Every Timeout's callback runs under its own async id (timers made before the hook too): a periodic one shows up as repeats.
    const fired = new Map<number, number>();
    const hook = createHook({
      before(id) {
        if (executionAsyncResource()?.constructor?.name === 'Timeout') fired.set(id, (fired.get(id) ?? 0) + 1);
      },
    });
    hook.enable();
    // 2.5 s: an interval of ≤ 1 s fires at least twice in it.
    await new Promise((r) => setTimeout(r, 2_500));
    hook.disable();
    const repeated = [...fired].filter(([, n]) => n > 1);
    expect(repeated).toEqual([]);
    const elapsed = Date.now() - t0;
    // One slot every 400 ms of wall clock, closed when read.
    expect(svm.height - slotBefore).toBeGreaterThanOrEqual(Math.floor(elapsed / 400) - 1);
  }, 30_000);

  it('blocks without IBC packets do not wake the relayer', async () => {
    const relayer = network.relayer!;
    await relayer.idle();
    const relayOnce = vi.spyOn(relayer as unknown as { relayOnce: () => Promise<void> }, 'relayOnce');
    try {
      const evm = network.chains.find((c) => c.kind === 'evm') as unknown as ChainletNode;
      await evm.mine(3);
      await relayer.idle();
      expect(relayOnce).not.toHaveBeenCalled();
    } finally {
      relayOnce.mockRestore();
    }
  });
});
