import { serialize, deserialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { ByteSlab } from './byte-slab.js';

describe('ByteSlab', () => {
  it('hands out zeroed, disjoint, 8-byte-aligned views, a new slab when one is full, and own arrays for small and large requests', () => {
    const slab = new ByteSlab(1024, 256);
    const views = Array.from({ length: 40 }, (_, i) => slab.alloc(65 + i));
    for (const [i, v] of views.entries()) {
      expect(v.length).toBe(65 + i);
      expect(v.every((b) => b === 0)).toBe(true);
      expect(v.byteOffset % 8).toBe(0);
      v.fill(i + 1);
    }
    for (const [i, v] of views.entries()) expect(v.every((b) => b === i + 1)).toBe(true);
    expect(new Set(views.map((v) => v.buffer)).size).toBeGreaterThan(1);
    const small = slab.alloc(64);
    const large = slab.alloc(257);
    expect([small.byteOffset, small.buffer.byteLength]).toEqual([0, 64]);
    expect([large.byteOffset, large.buffer.byteLength]).toEqual([0, 257]);
  });

  it('gives views that v8.serialize stores by their own bytes only (the fallback of value-codec)', () => {
    const slab = new ByteSlab();
    const v = slab.alloc(100).fill(7);
    const bytes = serialize({ v });
    expect(bytes.length).toBeLessThan(200);
    expect(Buffer.from((deserialize(bytes) as { v: Uint8Array }).v)).toEqual(Buffer.alloc(100, 7));
  });
});
