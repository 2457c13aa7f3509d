import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EvmBlock, EvmReceipt, EvmView } from '../../app/views/evm-view.js';
import type { EthTxPool } from './env.js';
import { FilterRegistry } from './filter-registry.js';

/** A view and a pool that only hand out listeners, and count the live ones. */
function sources() {
  const blocks = new Set<(b: EvmBlock, r: EvmReceipt[]) => void>();
  const txs = new Set<(h: Uint8Array) => void>();
  const view = {
    onBlock: (l: (b: EvmBlock, r: EvmReceipt[]) => void) => (blocks.add(l), () => void blocks.delete(l)),
  } as unknown as EvmView;
  const pool = {
    onNewTx: (l: (h: Uint8Array) => void) => (txs.add(l), () => void txs.delete(l)),
  } as unknown as EthTxPool;
  const block = (n: number) => ({ number: n, hash: new Uint8Array(32).fill(n), logsBloom: new Uint8Array(256) }) as unknown as EvmBlock;
  return {
    view,
    pool,
    blocks,
    txs,
    emitBlock: (n: number) => blocks.forEach((l) => l(block(n), [])),
    emitTx: (b: number) => txs.forEach((l) => l(Uint8Array.of(b))),
  };
}

describe('FilterRegistry', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('buffers block hashes and pending tx hashes until polled', () => {
    const s = sources();
    const reg = new FilterRegistry(s.view, s.pool, { timeoutMs: 1000, cap: 0 });
    const blocks = reg.install('blocks');
    const pending = reg.install('pendingTransactions');
    s.emitBlock(1);
    s.emitTx(0xab);
    expect(reg.takeChanges(blocks)).toEqual([`0x${'01'.repeat(32)}`]);
    expect(reg.takeChanges(blocks)).toEqual([]);
    expect(reg.takeChanges(pending)).toEqual(['0xab']);
    reg.close();
  });

  it('a filter idle past filter-timeout is gone; a polled one lives on', () => {
    const s = sources();
    const reg = new FilterRegistry(s.view, s.pool, { timeoutMs: 1000, cap: 0 });
    const idle = reg.install('blocks');
    const busy = reg.install('blocks');
    vi.advanceTimersByTime(600);
    expect(reg.takeChanges(busy)).toEqual([]);
    vi.advanceTimersByTime(600);
    expect(reg.takeChanges(idle)).toBeUndefined();
    expect(reg.takeChanges(busy)).toEqual([]);
    reg.close();
  });

  it('the sweep removes idle filters and then stops listening (no timer or listener left)', () => {
    const s = sources();
    const reg = new FilterRegistry(s.view, s.pool, { timeoutMs: 1000, cap: 0 });
    reg.install('blocks');
    expect(s.blocks.size).toBe(1);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(2500);
    expect(reg.size).toBe(0);
    expect(s.blocks.size + s.txs.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('uninstalling the last filter stops listening', () => {
    const s = sources();
    const reg = new FilterRegistry(s.view, s.pool, { timeoutMs: 1000, cap: 0 });
    const id = reg.install('pendingTransactions');
    expect(reg.uninstall(id.toUpperCase().replace('0X', '0x'))).toBe(true);
    expect(reg.uninstall(id)).toBe(false);
    expect(s.blocks.size + s.txs.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
