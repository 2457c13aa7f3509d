/**
 * The node's password-protected accounts (the personal namespace): v3 key files in
 * `<home>/keystore` named as geth names them (`UTC--<time>--<address>`), or kept in memory for a
 * node without a home. Unlocking decrypts a key into memory for a while (geth's default 300 s;
 * 0 = until locked); timers are unref'd and cleared by `close()`.
 */
import { MAX_TIMER_MS } from '../../util/timer.js';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { AccountExistsError, InvalidPrivateKeyError, LockedError, NoKeyError } from './errors.js';
import { decryptKey, encryptKey, LIGHT_SCRYPT, parseKeyFile, type KeyFileV3, type ScryptCost } from './keystore-v3.js';
import { ethAddressOfPrivateKey } from '../../crypto/hd-secp256k1.js';

export interface KeystoreOptions {
  /** Folder of the key files; undefined = in memory only. */
  dir?: string;
  /** scrypt cost of new files (default geth's light settings, as `--lightkdf`). */
  scrypt?: ScryptCost;
}

interface Unlocked {
  key: Uint8Array;
  timer: NodeJS.Timeout | undefined;
}

/** geth's default unlock duration. */
export const DEFAULT_UNLOCK_SECONDS = 300;

export class Keystore {
  /** Lower-case 0x address → key file, in creation order. */
  private readonly files = new Map<string, KeyFileV3>();
  private readonly unlocked = new Map<string, Unlocked>();
  private readonly scrypt: ScryptCost;

  constructor(private readonly opts: KeystoreOptions = {}) {
    this.scrypt = opts.scrypt ?? LIGHT_SCRYPT;
    if (opts.dir) this.loadDir(opts.dir);
  }

  get dir(): string | undefined {
    return this.opts.dir;
  }

  /** Lower-case 0x addresses, oldest first. */
  accounts(): string[] {
    return [...this.files.keys()];
  }

  has(address: string): boolean {
    return this.files.has(address.toLowerCase());
  }

  isUnlocked(address: string): boolean {
    return this.unlocked.has(address.toLowerCase());
  }

  async newAccount(password: string): Promise<string> {
    return this.store(secp256k1.utils.randomSecretKey(), password);
  }

  async importRawKey(privateKey: Uint8Array, password: string): Promise<string> {
    if (privateKey.length !== 32 || !secp256k1.utils.isValidSecretKey(privateKey)) throw new InvalidPrivateKeyError();
    const address = addressOf(privateKey);
    if (this.files.has(address)) throw new AccountExistsError(address);
    return this.store(privateKey, password);
  }

  /** Decrypts and keeps the key for `seconds` (0 = until locked). */
  async unlock(address: string, password: string, seconds = DEFAULT_UNLOCK_SECONDS): Promise<void> {
    const a = address.toLowerCase();
    const key = await this.decrypt(a, password);
    this.lock(a);
    // A duration no timer can hold (over ≈ 24.8 days) keeps the key until it is locked, as 0 does.
    const timer = seconds > 0 && seconds * 1000 <= MAX_TIMER_MS ? setTimeout(() => this.lock(a), seconds * 1000) : undefined;
    timer?.unref();
    this.unlocked.set(a, { key, timer });
  }

  /** Forgets an unlocked key; false when the account was not unlocked. */
  lock(address: string): boolean {
    const a = address.toLowerCase();
    const u = this.unlocked.get(a);
    if (u === undefined) return false;
    if (u.timer) clearTimeout(u.timer);
    u.key.fill(0);
    this.unlocked.delete(a);
    return true;
  }

  /** The key of an account: decrypted with `password` when given, else the unlocked one. */
  async key(address: string, password?: string): Promise<Uint8Array> {
    const a = address.toLowerCase();
    if (password !== undefined) return this.decrypt(a, password);
    const u = this.unlocked.get(a);
    if (u === undefined) {
      if (!this.files.has(a)) throw new NoKeyError(a);
      throw new LockedError(a);
    }
    return Uint8Array.from(u.key); // a copy: locking zeroes the kept one
  }

  /** Locks everything and clears the timers. */
  close(): void {
    for (const a of [...this.unlocked.keys()]) this.lock(a);
  }

  private async decrypt(address: string, password: string): Promise<Uint8Array> {
    const file = this.files.get(address);
    if (file === undefined) throw new NoKeyError(address);
    return decryptKey(file, password);
  }

  private async store(privateKey: Uint8Array, password: string): Promise<string> {
    const file = await encryptKey(privateKey, password, this.scrypt);
    const address = addressOf(privateKey);
    if (this.opts.dir) {
      mkdirSync(this.opts.dir, { recursive: true, mode: 0o700 });
      writeFileSync(join(this.opts.dir, keyFileName(address)), JSON.stringify(file), { mode: 0o600, flag: 'wx' });
    }
    this.files.set(address, file);
    return address;
  }

  private loadDir(dir: string): void {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return; // no keystore yet
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      try {
        const file = parseKeyFile(JSON.parse(readFileSync(join(dir, name), 'utf8')));
        if (typeof file.address === 'string' && /^[0-9a-fA-F]{40}$/.test(file.address.replace(/^0x/, ''))) {
          this.files.set(`0x${file.address.replace(/^0x/, '').toLowerCase()}`, file);
        }
      } catch {
        // Not a key file (geth skips those too).
      }
    }
  }
}

/** geth's file name: UTC--2006-01-02T15-04-05.000000000Z--<address hex>. */
export function keyFileName(address: string, now = new Date()): string {
  const iso = now
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.(\d{3})Z$/, '.$1000000Z');
  return `UTC--${iso}--${address.replace(/^0x/, '').toLowerCase()}`;
}

function addressOf(privateKey: Uint8Array): string {
  return `0x${Buffer.from(ethAddressOfPrivateKey(privateKey)).toString('hex')}`;
}
