import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Message } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { applyUpstreamEdit, UPSTREAM_EDITS } from '../../scripts/upstream-edits.mjs';

const require = createRequire(import.meta.url);
const FILES: Record<string, string> = {
  'lazy-bigint-cache': join(dirname(require.resolve('@ethereumjs/util')), '..', 'esm', 'bytes.js'),
  'evm-frame-object': join(dirname(require.resolve('@ethereumjs/evm')), '..', 'esm', 'evm.js'),
  'lazy-ws': join(dirname(require.resolve('@solana/rpc-subscriptions-channel-websocket')), 'index.node.mjs'),
};

describe('the bundle’s edits of dependency files (scripts/upstream-edits.mjs)', () => {
  it('still apply to the installed packages', () => {
    for (const edit of UPSTREAM_EDITS) {
      const path = FILES[edit.name];
      expect(path, `a file for ${edit.name}`).toBeDefined();
      expect(edit.file.test(path!)).toBe(true);
      const out = applyUpstreamEdit(edit, readFileSync(path!, 'utf8'), path!);
      expect(out).not.toBe(readFileSync(path!, 'utf8'));
    }
  });

  it('evm-frame-object: Object.assign builds the object the spread builds (keys, order, values)', () => {
    const messages = [
      new Message({
        to: new Address(new Uint8Array(20).fill(1)),
        caller: new Address(new Uint8Array(20).fill(2)),
        gasLimit: 100_000n,
        value: 5n,
        data: Uint8Array.of(1, 2),
        depth: 0,
      }),
      new Message({
        to: new Address(new Uint8Array(20).fill(3)),
        codeAddress: new Address(new Uint8Array(20).fill(4)),
        gasLimit: 7n,
        delegatecall: true,
        isStatic: true,
        depth: 3,
        salt: new Uint8Array(32),
      }),
    ];
    for (const message of messages) {
      const gasLimit = message.gasLimit - 1n;
      const spread = { ...{ codeAddress: message.codeAddress }, ...message, gasLimit };
      const assigned = Object.assign({ codeAddress: message.codeAddress }, message, { gasLimit });
      expect(Object.keys(assigned)).toEqual(Object.keys(spread));
      const a = assigned as unknown as Record<string, unknown>;
      const b = spread as unknown as Record<string, unknown>;
      for (const k of Object.keys(b)) expect(Object.is(a[k], b[k]), k).toBe(true);
      expect(Object.getPrototypeOf(assigned)).toBe(Object.getPrototypeOf(spread));
    }
  });

  it('lazy-ws: the readyState constants the channel compares with are ws’s own', () => {
    const ws = require('ws') as { CONNECTING: number; OPEN: number; CLOSING: number; CLOSED: number };
    expect({ CONNECTING: ws.CONNECTING, OPEN: ws.OPEN, CLOSING: ws.CLOSING, CLOSED: ws.CLOSED }).toEqual({ CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  });
});
