/**
 * The live explorer in a real browser: headless Chromium (Debian's `chromium`, driven by
 * playwright-core; no browser download) opens /explorer/ on a 4-validator devnet, sees a tx sent
 * over the JSON-RPC appear in the latest blocks, opens its page, takes validators offline and sees a
 * round change (3 of 4 keep going) and a halt (2 of 4). Screenshots go to test-artifacts/.
 * Without Chromium on the machine this file skips, with one line saying why.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_1, DEV_KEY_0, signEthTransfer } from '../../src/app/fixtures/signed-txs.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';

function findChromium(): string | undefined {
  if (process.env['CHROMIUM_PATH']) return process.env['CHROMIUM_PATH'];
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not this one
    }
  }
  return undefined;
}

const executablePath = findChromium();
if (!executablePath) console.warn('explorer browser test skipped: no Chromium on this machine (apt install chromium, or set CHROMIUM_PATH)');
const artifacts = join(process.cwd(), 'test-artifacts');

let node: ChainletNode;
let browser: Browser;
let page: Page;

describe.skipIf(!executablePath)('the live explorer in headless Chromium', () => {
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    node = await startTestNode({ devnet: { validators: 4 }, config: { consensus: { mode: 'interval', timeoutCommitMs: 150 } } });
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await node?.stop();
  });

  it('shows a sent tx live, opens its page, and shows rounds change and the chain halt as validators go offline', async () => {
    await page.goto(`${node.urls.routing}/explorer/`);
    await page.waitForSelector('#live.ok', { timeout: 15_000 });
    await page.waitForSelector('#consensus');

    const raw = signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 12345n, { nonce: 0n });
    const cometHash = createHash('sha256').update(raw).digest('hex').toUpperCase();
    const sent = await fetch(node.urls.jsonRpc!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [`0x${Buffer.from(raw).toString('hex')}`] }) });
    expect(((await sent.json()) as { result?: string }).result).toMatch(/^0x/);
    const link = page.locator(`#blocks a[href="#/tx/${cometHash}"]`);
    await link.waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(artifacts, 'explorer-dashboard.png'), fullPage: true });

    await link.click();
    await page.waitForSelector('text=Ethereum tx', { timeout: 10_000 });
    const text = await page.locator('main').innerText();
    expect(text.toLowerCase()).toContain(DEV_ADDRESS_1.toLowerCase());
    expect(text).toContain('success');
    await page.screenshot({ path: join(artifacts, 'explorer-tx.png'), fullPage: true });

    // Validator 3 offline: when it should propose, round 0 times out and round 1 goes on (3 of 4).
    await page.goto(`${node.urls.routing}/explorer/#/`);
    await page.waitForSelector('#live.ok');
    await page.locator('button[data-val="3"]').click();
    await page.waitForFunction(() => Number((globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('#round')?.textContent ?? '0') >= 1, undefined, { timeout: 20_000 });
    await page.screenshot({ path: join(artifacts, 'explorer-round-change.png'), fullPage: true });
    // A second one offline: 2 of 4 cannot reach +2/3, the chain halts.
    await page.locator('button[data-val="2"]').click();
    await page.waitForSelector('#halted', { timeout: 20_000 });
    expect(await page.locator('#halted').innerText()).toContain('Chain halted');
    await page.locator('button[data-val="2"]').click();
    await page.locator('button[data-val="3"]').click();
  }, 90_000);
});
