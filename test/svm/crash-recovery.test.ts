/**
 * The SVM chain on a home survives kill -9: a transfer confirmed through @solana/kit against a
 * chain in a child process, the child SIGKILLed, the chain started again on the same home: the
 * balance, the tx's signature status and getTransaction are there, and the slot went on.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createKeyPairSignerFromBytes, createSolanaRpc, generateKeyPairSigner, lamports } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, describe, expect, it } from 'vitest';
import { startSvmChain } from '../../src/chains/svm/start.js';
import { devSolanaKeypairs } from '../../src/index.js';
import { signedWire } from './helpers.js';

const home = mkdtempSync(join(tmpdir(), 'chainlet-svm-crash-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('an SVM chain on a home, killed with SIGKILL', () => {
  it('keeps a confirmed transfer: balance, signature status and the tx', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../fixtures/run-svm-home.ts', import.meta.url)), home], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const first = await new Promise<{ rpc: string }>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l) as { rpc: string }));
        child.once('exit', (code) => reject(new Error(`child exited (${code}) before it was ready`)));
      });
      const rpc = createSolanaRpc(first.rpc);
      const payer = await createKeyPairSignerFromBytes(devSolanaKeypairs()[2]!.secretKey);
      const to = (await generateKeyPairSigner()).address;
      const bh = (await rpc.getLatestBlockhash().send()).value;
      const wire = await signedWire(payer, [getTransferSolInstruction({ source: payer, destination: to, amount: lamports(3_210_000_000n) })], bh);
      const sig = await rpc.sendTransaction(wire as never, { encoding: 'base64' }).send();
      const status = (await rpc.getSignatureStatuses([sig]).send()).value[0];
      expect(status?.confirmationStatus).toBe('confirmed');
      const slotBefore = await rpc.getSlot().send();
      child.kill('SIGKILL');
      await exited;

      const again = await startSvmChain({ kind: 'svm', home, rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0 });
      try {
        const rpc2 = createSolanaRpc(again.urls.rpc!);
        expect((await rpc2.getBalance(to).send()).value).toBe(3_210_000_000n);
        expect((await rpc2.getSignatureStatuses([sig]).send()).value[0]).toMatchObject({ err: null, slot: status!.slot });
        const tx = await rpc2.getTransaction(sig, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
        expect(tx?.meta?.postBalances[1]).toBe(3_210_000_000n);
        expect(await rpc2.getSlot().send()).toBeGreaterThanOrEqual(slotBefore);
        // The replayed window still refuses a replay.
        const replay = await rpc2
          .sendTransaction(wire as never, { encoding: 'base64' })
          .send()
          .then(
            () => undefined,
            (e: unknown) => e as Error,
          );
        expect((replay?.cause as Error | undefined)?.message).toMatch(/already been processed/);
      } finally {
        await again.stop();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    }
  });
});
