import { describe, expect, it } from 'vitest';
import { BodyBuffer } from './body-buffer.js';

const bytes = (n: number, fill: number) => Buffer.alloc(n, fill);

describe('BodyBuffer', () => {
  it('keeps a body that arrives in one chunk without copying it', () => {
    const b = new BodyBuffer(3);
    const chunk = Buffer.from('abc');
    b.push(chunk);
    expect(b.take()).toBe(chunk);
  });

  it('gathers chunks into one buffer of the declared length', () => {
    const b = new BodyBuffer(5);
    b.push(Buffer.from('ab'));
    b.push(Buffer.from('cde'));
    expect(b.take().toString()).toBe('abcde');
    expect(b.size).toBe(5);
  });

  it('grows without a declared length (chunked) and keeps every byte in order', () => {
    const b = new BodyBuffer(undefined);
    const parts = [bytes(70_000, 1), bytes(100_000, 2), bytes(5, 3), bytes(200_000, 4)];
    for (const p of parts) b.push(p);
    expect(b.take().equals(Buffer.concat(parts))).toBe(true);
  });

  it('answers an empty body and forgets what it gathered on clear', () => {
    expect(new BodyBuffer(undefined).take().length).toBe(0);
    const b = new BodyBuffer(undefined);
    b.push(Buffer.from('x'));
    b.push(Buffer.from('y'));
    b.clear();
    expect(b.size).toBe(0);
    expect(b.take().length).toBe(0);
  });
});
