/**
 * An SVM chain started from code on a home reads the `[svm]` section of that home's
 * `config/app.toml`, as `chainlet start --home` does, the spec's own typed options winning over the
 * file (as `--svm.*` flags do): seen from outside as a CORS preflight answer and a 413.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSvmChain } from '../../src/chains/svm/start.js';
import { startNetwork } from '../../src/network/network.js';

const APP = 'http://app.example';
const OTHER = 'http://other.example';
const BODY = 4096;
const PORTS0 = { rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0 } as const;

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

/** A home whose `config/app.toml` holds `toml`. */
function homeWith(toml: string): string {
  const home = mkdtempSync(join(tmpdir(), 'chainlet-svm-settings-'));
  homes.push(home);
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'app.toml'), toml);
  return home;
}

const APP_TOML = `[svm]\ncors-allowed-origins = ["${APP}"]\nmax-body-bytes = ${BODY}\n`;

/** A getSlot request padded with spaces to exactly `n` bytes. */
function bodyOf(n: number): string {
  const json = '{"jsonrpc":"2.0","id":1,"method":"getSlot"}';
  return json + ' '.repeat(n - json.length);
}

const post = (url: string, n: number) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodyOf(n) });

/** The origin a CORS preflight from `origin` is allowed, or null. */
async function allowedOrigin(url: string, origin: string): Promise<string | null> {
  const res = await fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  return res.headers.get('access-control-allow-origin');
}

describe("an SVM chain on a home, started from code, reads the home's [svm] settings", () => {
  it("startSvmChain: the file's origins and body limit", async () => {
    const chain = await startSvmChain({ kind: 'svm', home: homeWith(APP_TOML), ...PORTS0 });
    try {
      const rpc = chain.urls.rpc!;
      expect(await allowedOrigin(rpc, APP)).toBe(APP);
      expect(await allowedOrigin(rpc, OTHER)).toBeNull();
      expect((await post(rpc, BODY)).status).toBe(200);
      const over = await post(rpc, BODY + 1);
      expect(over.status).toBe(413);
      expect(await over.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `request body too large (max ${BODY} bytes)` } });
    } finally {
      await chain.stop();
    }
  });

  it("the spec's own options win over the file", async () => {
    const chain = await startSvmChain({ kind: 'svm', home: homeWith(APP_TOML), ...PORTS0, corsAllowedOrigins: [OTHER], maxBodyBytes: 2 * BODY });
    try {
      const rpc = chain.urls.rpc!;
      expect(await allowedOrigin(rpc, OTHER)).toBe(OTHER);
      expect(await allowedOrigin(rpc, APP)).toBeNull();
      expect((await post(rpc, BODY + 1)).status).toBe(200);
      expect((await post(rpc, 2 * BODY + 1)).status).toBe(413);
    } finally {
      await chain.stop();
    }
  });

  it('startNetwork with an svm spec on a home: the same file', async () => {
    const network = await startNetwork({ chains: [{ kind: 'svm', home: homeWith(APP_TOML), ...PORTS0 }], ibc: false });
    try {
      const rpc = network.chains[0]!.urls.rpc!;
      expect(await allowedOrigin(rpc, APP)).toBe(APP);
      expect((await post(rpc, BODY + 1)).status).toBe(413);
    } finally {
      await network.stop();
    }
  });

  it('a bad value in the file stops the start, naming the key and the file', async () => {
    const zero = homeWith('[svm]\nmax-records = 0\n');
    await expect(startSvmChain({ kind: 'svm', home: zero, ...PORTS0 })).rejects.toThrow(
      'svm chain: maxRecords ([svm] max-records) must be an integer ≥ 1, got 0',
    );
    const word = homeWith('[svm]\nmax-body-bytes = "big"\n');
    await expect(startSvmChain({ kind: 'svm', home: word, ...PORTS0 })).rejects.toThrow(
      `${join(word, 'config', 'app.toml')}: invalid value "big" for svm.max-body-bytes`,
    );
  });
});
