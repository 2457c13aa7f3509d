/**
 * `startNode({ servers: false })` opens no server: a test suite's in-process node must not take the
 * default ports (26657, 8545…), which a devnet or another suite may hold. The network's "open every
 * chain's servers once all are up" step opened them anyway.
 */
import { describe, expect, it } from 'vitest';
import { startNode } from '../../src/network/start-node.js';

describe('startNode({ servers: false })', () => {
  it('has no URLs and listens on no port', async () => {
    const node = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
    try {
      expect(node.urls).toEqual({});
      await node.mine(1);
      expect(node.urls).toEqual({});
    } finally {
      await node.stop();
    }
  });
});
