import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKEND_ENV, loadUws, resolveBackendChoice, selectBackend } from './backend.js';
import { BackendUnavailableError, InvalidBackendError } from './errors.js';

describe('resolveBackendChoice', () => {
  it('defaults to node:http and follows the option', () => {
    expect(resolveBackendChoice(undefined, {})).toBe('node');
    expect(resolveBackendChoice('auto', {})).toBe('auto');
    expect(resolveBackendChoice('node', {})).toBe('node');
  });

  it('lets CHAINLET_HTTP_BACKEND override the option', () => {
    expect(resolveBackendChoice('uws', { [BACKEND_ENV]: 'node' })).toBe('node');
    expect(resolveBackendChoice('node', { [BACKEND_ENV]: ' UWS ' })).toBe('uws');
    expect(resolveBackendChoice('node', { [BACKEND_ENV]: '' })).toBe('node');
  });

  it('rejects unknown names', () => {
    expect(() => resolveBackendChoice(undefined, { [BACKEND_ENV]: 'express' })).toThrow(InvalidBackendError);
    expect(() => resolveBackendChoice('h2' as never, {})).toThrow(InvalidBackendError);
  });
});

const require = createRequire(import.meta.url);
const binary = join(
  dirname(require.resolve('@trufflesuite/uws-js-unofficial/package.json')),
  'binaries',
  `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`,
);

describe('selectBackend', () => {
  it.runIf(existsSync(binary))('loads the native uWS binary shipped for this Node and uses it for auto', () => {
    expect('uws' in loadUws()).toBe(true);
    expect(selectBackend('auto').name).toBe('uws');
  });

  it.runIf(!existsSync(binary))('falls back to node for auto and refuses an explicit uws', () => {
    expect(selectBackend('auto').name).toBe('node');
    expect(() => selectBackend('uws')).toThrow(BackendUnavailableError);
  });

  it('never loads uWS for node', () => {
    expect(selectBackend('node')).toEqual({ name: 'node' });
  });
});
