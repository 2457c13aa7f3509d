/** Keystore errors, worded as geth's accounts/keystore package words them (clients show these texts). */

import { KeystoreError } from '../../rpc/eth/namespaces/service-errors.js';

export { KeystoreError };

/** geth keystore.ErrDecrypt. */
export class DecryptError extends KeystoreError {
  override name = 'DecryptError';
  constructor() {
    super('could not decrypt key with given password');
  }
}

/** geth keystore.ErrNoMatch. */
export class NoKeyError extends KeystoreError {
  override name = 'NoKeyError';
  constructor(readonly address: string) {
    super('no key for given address or file');
  }
}

/** geth keystore.ErrLocked ("authentication needed: password or unlock"). */
export class LockedError extends KeystoreError {
  override name = 'LockedError';
  constructor(readonly address: string) {
    super('authentication needed: password or unlock');
  }
}

/** geth keystore.ErrAccountAlreadyExists. */
export class AccountExistsError extends KeystoreError {
  override name = 'AccountExistsError';
  constructor(readonly address: string) {
    super('account already exists');
  }
}

/** A key file that is not Web3 Secret Storage v3 as we can read it. */
export class KeyFileError extends KeystoreError {
  override name = 'KeyFileError';
  constructor(readonly detail: string) {
    super(`invalid key file: ${detail}`);
  }
}

/** personal_importRawKey with something that is not a secp256k1 private key. */
export class InvalidPrivateKeyError extends KeystoreError {
  override name = 'InvalidPrivateKeyError';
  constructor() {
    super('invalid private key');
  }
}
