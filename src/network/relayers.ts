/**
 * The network's IBC relayers as one control (chainlet_pauseRelayer, chainlet_resumeRelayer,
 * chainlet_flushRelayer, chainlet_relayerStatus): given to the chains at start, filled as each
 * pair's channel opens.
 */
import type { RelayerControl } from '../rpc/eth/namespaces/services.js';
import type { Relayer } from './ibc/relayer.js';
import type { RelayerStatus } from './ibc/relay-types.js';

export class NetworkRelayers implements RelayerControl {
  private readonly list: Relayer[] = [];

  add(r: Relayer): void {
    this.list.push(r);
  }

  get all(): readonly Relayer[] {
    return this.list;
  }

  pause(): void {
    for (const r of this.list) r.pause();
  }

  resume(): void {
    for (const r of this.list) r.resume();
  }

  async flush(): Promise<void> {
    await Promise.all(this.list.map((r) => r.flush()));
  }

  /** Every relayer's paths and pending packets; paused when every relayer is. */
  status(): RelayerStatus {
    const each = this.list.map((r) => r.status());
    return {
      paused: each.length > 0 && each.every((s) => s.paused),
      mode: each[0]?.mode ?? 'block',
      paths: each.flatMap((s) => s.paths),
      pending: each.flatMap((s) => s.pending),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.list.map((r) => r.stop()));
  }
}
