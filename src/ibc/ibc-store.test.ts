import { describe, expect, it } from 'vitest';
import { IbcStore } from './ibc-store.js';

const bytes = (s: string) => new TextEncoder().encode(s);

function plain(entries: Record<string, string>): IbcStore {
  const s = new IbcStore();
  for (const [k, v] of Object.entries(entries)) s.set(k, v);
  return s;
}

describe('IbcStore', () => {
  it('forks in O(1): reads fall through, writes and deletes stay in the fork', () => {
    const committed = plain({ 'a/1': 'one', 'a/2': 'two', 'b/1': 'three' });
    const before = committed.entries('');
    const fork = committed.copy();
    expect(fork.getText('a/1')).toBe('one');
    expect(fork.size).toBe(3);
    fork.set('a/3', 'four');
    fork.delete('a/1');
    fork.set('b/1', 'changed');
    expect(fork.has('a/1')).toBe(false);
    expect(fork.size).toBe(3);
    expect(fork.entries('a/').map(([k]) => k)).toEqual(['a/2', 'a/3']);
    // The committed store is untouched.
    expect(committed.getText('a/1')).toBe('one');
    expect(committed.has('a/3')).toBe(false);
    expect(committed.getText('b/1')).toBe('three');
    expect(committed.entries('')).toEqual(before);
  });

  it('has the size and entries of a plain store with the same content, before and after flatten', () => {
    const fork = plain({ x: '1', y: '2', z: '3' }).copy();
    fork.delete('y');
    fork.set('w', '0');
    const same = plain({ w: '0', x: '1', z: '3' });
    expect(fork.entries('')).toEqual(same.entries(''));
    const flat = fork.flatten();
    expect(flat.size).toBe(3);
    expect(flat.entries('')).toEqual(same.entries(''));
  });

  it('flattens a fork that wrote nothing to its base (the same store)', () => {
    const committed = plain({ k: 'v' });
    const fork = committed.copy();
    expect(fork.flatten()).toBe(committed);
  });

  it('reverts a checkpoint in a fork, deletes included, and keeps the writes of a committed one', () => {
    const fork = plain({ keep: 'k', gone: 'g' }).copy();
    fork.checkpoint();
    fork.set('keep', 'changed');
    fork.delete('gone');
    fork.set('new', 'n');
    fork.revert();
    expect(fork.getText('keep')).toBe('k');
    expect(fork.getText('gone')).toBe('g');
    expect(fork.has('new')).toBe(false);
    expect(fork.size).toBe(2);
    fork.checkpoint();
    fork.set('new', 'n');
    fork.checkpoint();
    fork.delete('keep');
    fork.commit();
    fork.commit();
    expect(fork.has('keep')).toBe(false);
    expect(fork.getText('new')).toBe('n');
    expect(fork.size).toBe(2);
    expect(fork.takeWrites().map(([k, v]) => [k, v && new TextDecoder().decode(v)])).toEqual([
      ['gone', 'g'],
      ['keep', undefined],
      ['new', 'n'],
    ]);
  });

  it('refuses writes to a store once it has been forked (a committed store is read only)', () => {
    const committed = plain({ k: 'v' });
    committed.copy();
    expect(() => committed.set('k', bytes('w'))).toThrow(/forked/);
    expect(committed.getText('k')).toBe('v');
  });
});
