import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccountExistsError, DecryptError, InvalidPrivateKeyError, LockedError, NoKeyError } from './errors.js';
import { Keystore, keyFileName } from './keystore.js';
import { decryptKey } from './keystore-v3.js';

const DEV_KEY_0 = new Uint8Array(Buffer.from('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', 'hex'));
const DEV_ADDRESS_0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

const dirs: string[] = [];
const stores: Keystore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  vi.useRealTimers();
});

function keystore(dir?: string): Keystore {
  const k = new Keystore({ dir });
  stores.push(k);
  return k;
}

describe('keystore', () => {
  it('writes geth-named v3 files under the folder and reads them back on a new start', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'chainlet-ks-')), 'keystore');
    dirs.push(join(dir, '..'));
    const ks = keystore(dir);
    const created = await ks.newAccount('one');
    const imported = await ks.importRawKey(DEV_KEY_0, 'two');
    expect(imported).toBe(DEV_ADDRESS_0);
    const files = readdirSync(dir);
    expect(files).toHaveLength(2);
    for (const f of files) {
      expect(f).toMatch(/^UTC--\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{9}Z--[0-9a-f]{40}$/);
      expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    }
    const file = JSON.parse(
      readFileSync(
        join(
          dir,
          files.find((f) => f.endsWith(DEV_ADDRESS_0.slice(2)))!,
        ),
        'utf8',
      ),
    );
    expect(Buffer.from(await decryptKey(file, 'two'))).toEqual(Buffer.from(DEV_KEY_0));

    const again = keystore(dir);
    expect(again.accounts().sort()).toEqual([created, imported].sort());
    await again.unlock(created, 'one');
    expect(again.isUnlocked(created)).toBe(true);
  });

  it('unlocks for a while, locks, and signs only with the password or an unlocked key', async () => {
    const ks = keystore();
    const a = await ks.importRawKey(DEV_KEY_0, 'pw');
    await expect(ks.key(a)).rejects.toBeInstanceOf(LockedError);
    await expect(ks.key(a)).rejects.toThrow('authentication needed: password or unlock');
    expect(await ks.key(a, 'pw')).toEqual(DEV_KEY_0);
    await expect(ks.unlock(a, 'bad')).rejects.toBeInstanceOf(DecryptError);

    vi.useFakeTimers();
    await ks.unlock(a, 'pw', 2);
    expect(ks.isUnlocked(a)).toBe(true);
    expect(await ks.key(a)).toEqual(DEV_KEY_0);
    vi.advanceTimersByTime(2_001);
    expect(ks.isUnlocked(a)).toBe(false);

    await ks.unlock(a, 'pw', 0); // until locked
    vi.advanceTimersByTime(10_000_000);
    expect(ks.isUnlocked(a)).toBe(true);
    expect(ks.lock(a)).toBe(true);
    expect(ks.lock(a)).toBe(false);
  });

  it('refuses duplicates, bad keys and unknown accounts with geth’s texts', async () => {
    const ks = keystore();
    await ks.importRawKey(DEV_KEY_0, 'pw');
    await expect(ks.importRawKey(DEV_KEY_0, 'pw')).rejects.toThrow(new AccountExistsError(DEV_ADDRESS_0));
    await expect(ks.importRawKey(new Uint8Array(32), 'pw')).rejects.toBeInstanceOf(InvalidPrivateKeyError);
    await expect(ks.unlock('0x0000000000000000000000000000000000000001', 'pw')).rejects.toBeInstanceOf(NoKeyError);
    expect(new NoKeyError('x').message).toBe('no key for given address or file');
  });

  it('names files as geth does', () => {
    expect(keyFileName('0xABCDEF0123456789abcdef0123456789ABCDEF01', new Date('2016-03-22T12:57:55.920Z'))).toBe(
      'UTC--2016-03-22T12-57-55.920000000Z--abcdef0123456789abcdef0123456789abcdef01',
    );
  });
});
