/**
 * The live explorer in a real browser: headless Chromium (Debian's `chromium`, driven by
 * playwright-core; no browser download) opens /explorer/ on a 4-validator devnet, sees a tx sent
 * over the JSON-RPC appear in the latest blocks, opens its page, takes validators offline and sees a
 * round change (3 of 4 keep going) and a halt (2 of 4); on a network with the hub, an IBC transfer
 * listed pending while the relayer is paused, then done with its packet's txs linked on both chains.
 * Screenshots go to test-artifacts/.
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
import { FAST_CONSENSUS, startTestNode, TEST_PORTS } from '../helpers/node.js';
import { mergeConfig } from '../../src/config/defaults.js';
import { startNetwork } from '../../src/network/network.js';
import type { SvmChain } from '../../src/chains/svm/start.js';
import { createKeyPairSignerFromBytes, generateKeyPairSigner, lamports } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { signedWire } from '../svm/helpers.js';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { SigningStargateClient } from '@cosmjs/stargate';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import type { HubChain } from '../../src/chains/hub/start.js';
import type { Network } from '../../src/network/network.js';

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
    const sent = await fetch(node.urls.jsonRpc!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [`0x${Buffer.from(raw).toString('hex')}`] }),
    });
    expect(((await sent.json()) as { result?: string }).result).toMatch(/^0x/);
    const link = page.locator(`#blocks a[href="#/tx/${cometHash}"]`);
    await link.waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(artifacts, 'explorer-dashboard.png'), fullPage: true });

    await link.click();
    await page.waitForSelector('td:text-is("Ethereum tx")', { timeout: 10_000 });
    const text = await page.locator('main').innerText();
    expect(text.toLowerCase()).toContain(DEV_ADDRESS_1.toLowerCase());
    expect(text).toContain('success');
    await page.screenshot({ path: join(artifacts, 'explorer-tx.png'), fullPage: true });

    // A tx behind a nonce gap waits in the mempool as queued, per sender.
    const gap = signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: 5n });
    await fetch(node.urls.jsonRpc!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_sendRawTransaction', params: [`0x${Buffer.from(gap).toString('hex')}`] }),
    });
    await page.goto(`${node.urls.routing}/explorer/#/`);
    await page.waitForSelector('#mempool >> text=1 queued', { timeout: 10_000 });

    // Validator 3 offline: when it should propose, round 0 times out and round 1 goes on (3 of 4).
    await page.goto(`${node.urls.routing}/explorer/#/`);
    await page.waitForSelector('#live.ok');
    await page.locator('button[data-val="3"]').click();
    await page.waitForFunction(
      () =>
        Number(
          (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('#round')
            ?.textContent ?? '0',
        ) >= 1,
      undefined,
      { timeout: 20_000 },
    );
    await page.screenshot({ path: join(artifacts, 'explorer-round-change.png'), fullPage: true });
    // A second one offline: 2 of 4 cannot reach +2/3, the chain halts.
    await page.locator('button[data-val="2"]').click();
    await page.waitForSelector('#halted', { timeout: 20_000 });
    expect(await page.locator('#halted').innerText()).toContain('Chain halted');
    await page.locator('button[data-val="2"]').click();
    await page.locator('button[data-val="3"]').click();
  }, 90_000);

  it('shows the SVM chain of a network: its slot, a Solana tx found by its signature, a Solana account', async () => {
    const network = await startNetwork({
      chains: [
        { kind: 'evm', config: mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never) as never },
        { kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } } },
        { kind: 'svm', rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0 },
      ],
    });
    try {
      const svmChain = network.chains.find((c): c is SvmChain => c.kind === 'svm')!;
      const hub = network.chains.find((c) => c.kind === 'hub')!;
      const payer = await createKeyPairSignerFromBytes(svmChain.ledger.devAccounts[0]!.secretKey);
      const to = await generateKeyPairSigner();
      const wire = await signedWire(
        payer,
        [getTransferSolInstruction({ source: payer, destination: to.address, amount: lamports(2_000_000_000n) })],
        svmChain.ledger.latestBlockhash(),
      );
      const rec = svmChain.ledger.send(Buffer.from(wire, 'base64'));
      await svmChain.mine(3);
      await page.goto(`${network.urls.routing}/explorer/`);
      await page.waitForSelector('#slot');
      await page.fill('#q', rec.signature);
      await page.press('#q', 'Enter');
      await page.waitForSelector('h2:text-is("Solana tx")', { timeout: 10_000 });
      const text = await page.locator('main').innerText();
      // Display units, the base amount on hover.
      expect(text).toContain('0.000005 SOL');
      expect(await page.locator('main .amount[title="5000 lamports"]').count()).toBe(1);
      expect(text).toContain('success');
      await page.screenshot({ path: join(artifacts, 'explorer-solana-tx.png'), fullPage: true });
      await page.fill('#q', to.address);
      await page.press('#q', 'Enter');
      await page.waitForSelector('.account .balance', { timeout: 10_000 });
      expect(await page.locator('main').innerText()).toContain('2 SOL');

      // Every address form shows the account: its balances, in display units, on each chain that takes that form.
      const evmAccount = network.evm!.accounts[1]!.address;
      const bech = toBech32('chainlet', Buffer.from(evmAccount.slice(2), 'hex'));
      const hubWallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
      const hubAddress = (await hubWallet.getAccounts())[0]!.address;
      const solAddress = payer.address;
      const account = async (addr: string) => {
        await page.goto('about:blank');
        await page.goto(`${network.urls.routing}/explorer/#/account/${addr}`);
        await page.waitForSelector('.account .balance', { timeout: 10_000 });
        const sections = page.locator('section.account');
        return {
          chains: await sections.evaluateAll((xs) => xs.map((x) => x.getAttribute('data-chain'))),
          text: await page.locator('main').innerText(),
          titles: await page.locator('.account .balance .amount').evaluateAll((xs) => xs.map((x) => x.getAttribute('title'))),
        };
      };
      for (const addr of [evmAccount, bech]) {
        const a = await account(addr);
        expect(a.chains).toEqual([network.evm!.chainId]); // the EVM chain's two faces: one account
        expect(a.text).toContain('10,000 CHAINLET');
        expect(a.titles).toContain('10000000000000000000000 achainlet');
        expect(a.text).toContain(bech);
        expect(a.text.toLowerCase()).toContain(evmAccount.toLowerCase());
        expect(a.text).toContain('nonce');
      }
      const onHub = await account(hubAddress);
      expect(onHub.chains).toEqual([hub.chainId]);
      expect(onHub.text).not.toContain('Invalid pubkey');
      expect(onHub.text).toMatch(/[\d,.]+ HUB/);
      expect(onHub.titles.some((t) => /^\d+ uhub$/.test(t ?? ''))).toBe(true);
      const onSvm = await account(solAddress);
      expect(onSvm.chains).toEqual([svmChain.chainId]);
      expect(onSvm.text).toMatch(/[\d,.]+ SOL/);
      expect(onSvm.titles.some((t) => /^\d+ lamports$/.test(t ?? ''))).toBe(true);
      expect(await page.locator(`.account a[href="#/sol-tx/${rec.signature}"]`).count()).toBe(1); // its recent txs
      await page.screenshot({ path: join(artifacts, 'explorer-account.png'), fullPage: true });
      // The hub chain: its own blocks, consensus and validators, live.
      await page.goto(`${network.urls.routing}/explorer/#/`);
      await page.waitForSelector('#live.ok');
      const hubHead = async () =>
        ((await (await fetch(`${hub.urls.rpc}/block`)).json()) as { result: { block_id: { hash: string } } }).result.block_id.hash.slice(0, 8);
      await page.selectOption('#chain', 'chainlethub-1');
      await page.waitForSelector(`#blocks >> text=${await hubHead()}`, { timeout: 10_000 });
      await page.waitForSelector('#live.ok'); // every subscription of the hub acknowledged
      await hub.mine(1);
      await page.waitForSelector(`#blocks >> text=${await hubHead()}`, { timeout: 10_000 });
      expect(await page.locator('#consensus button').count()).toBe(0); // no devnet switch on the hub
      await page.screenshot({ path: join(artifacts, 'explorer-hub.png'), fullPage: true });
    } finally {
      await network.stop();
    }
  }, 60_000);
});

describe.skipIf(!executablePath)('the IBC view of the live explorer in headless Chromium', () => {
  let network: Network;
  let ibcBrowser: Browser;
  let ibcPage: Page;

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    network = await startNetwork({
      chains: [
        { kind: 'evm', config: mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never) as never },
        { kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } } },
      ],
    });
    ibcBrowser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    ibcPage = await ibcBrowser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 60_000);

  afterAll(async () => {
    network?.relayer?.resume();
    await ibcBrowser?.close();
    await network?.stop();
  });

  it('lists a transfer from the hub as pending while the relayer is paused, then done with its receive and acknowledge txs', async () => {
    const page = ibcPage;
    const hub = network.chains.find((c): c is HubChain => c.kind === 'hub')!;
    const evm = network.evm!;
    const receiver = toBech32(evm.internals.app.evm.bech32Prefix, Buffer.from(evm.accounts[1]!.address.slice(2), 'hex'));
    network.relayer!.pause();

    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
    const [from] = await wallet.getAccounts();
    const client = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, wallet, { broadcastPollIntervalMs: 50 });
    const transfer = async (to: string, amount: string) => {
      const r = await client.sendIbcTokens(
        from!.address,
        to,
        { denom: 'uhub', amount },
        'transfer',
        'channel-0',
        undefined,
        Math.floor(Date.now() / 1000) + 600,
        { amount: [], gas: '300000' },
      );
      expect(r.code).toBe(0);
      const seq = r.events.find((e) => e.type === 'send_packet')!.attributes.find((a) => a.key === 'packet_sequence')!.value;
      return {
        hash: r.transactionHash,
        row: (state = '') => page.locator(`#ibc tr[data-packet="${hub.chainId}/channel-0/${seq}"]${state ? `[data-state="${state}"]` : ''}`),
      };
    };
    const sent = await transfer(receiver, '424242');

    // Pending on the dashboard: the relayer has not received the packet on the EVM chain.
    await page.goto(`${network.urls.routing}/explorer/`);
    await page.waitForSelector('#live.ok', { timeout: 15_000 });
    const pending = sent.row('TRANSFER_PENDING');
    await pending.waitFor({ timeout: 15_000 });
    expect(await pending.locator('.badge').innerText()).toBe('pending');
    const text = await pending.innerText();
    for (const s of [hub.chainId, evm.chainId, 'channel-0', '0.424242 HUB']) expect(text).toContain(s);
    expect(await pending.locator('.amount').getAttribute('title')).toBe('424242 uhub');
    const sendHref = `#/tx/${sent.hash}?chain=${encodeURIComponent(hub.chainId)}`;
    expect(await pending.locator('a[data-tx="send"]').getAttribute('href')).toBe(sendHref);
    expect(await pending.locator('a[data-tx="receive"], a[data-tx="acknowledge"], a[data-tx="timeout"]').count()).toBe(0);
    expect(await page.isVisible('#ibc-link')).toBe(true);
    await page.screenshot({ path: join(artifacts, 'explorer-ibc-pending.png'), fullPage: true });

    // A second transfer re-renders the section: the link focused by keyboard keeps the focus.
    await pending.locator('a[data-tx="send"]').focus();
    const second = await transfer(receiver, '1000');
    await second.row('TRANSFER_PENDING').waitFor({ timeout: 15_000 });
    expect(await page.evaluate("document.activeElement && document.activeElement.getAttribute('href')")).toBe(sendHref);

    // The relayer goes on: receive on the EVM chain, acknowledgement back on the hub.
    await page.goto(`${network.urls.routing}/explorer/#/ibc`);
    await pending.waitFor({ timeout: 10_000 });
    network.relayer!.resume();
    const done = sent.row('TRANSFER_SUCCESS');
    await done.waitFor({ timeout: 20_000 });
    await second.row('TRANSFER_SUCCESS').waitFor({ timeout: 20_000 });
    expect(await done.locator('.badge').innerText()).toBe('done');
    expect(await done.locator('a[data-tx="receive"]').getAttribute('href')).toMatch(new RegExp(`^#/tx/[0-9A-F]{64}\\?chain=${evm.chainId}$`));
    expect(await done.locator('a[data-tx="acknowledge"]').getAttribute('href')).toMatch(new RegExp(`^#/tx/[0-9A-F]{64}\\?chain=${hub.chainId}$`));
    expect(await done.locator('a[data-tx="timeout"]').count()).toBe(0);
    const receiveHref = await done.locator('a[data-tx="receive"]').getAttribute('href');
    // A receiver the EVM chain rejects: an error acknowledgement, the transfer failed with its error.
    const bad = await transfer('not-an-address', '4343');
    client.disconnect();
    const failed = bad.row('TRANSFER_FAILURE');
    await failed.waitFor({ timeout: 20_000 });
    expect(await failed.locator('.badge').innerText()).toBe('failed');
    expect((await failed.locator('.ibc-error').innerText()).length).toBeGreaterThan(0);
    expect(await failed.locator('a[data-tx="acknowledge"]').count()).toBe(1);
    expect(await page.locator('#ibc h2').innerText()).toContain('0 in flight, 2 done, 1 failed');
    await page.screenshot({ path: join(artifacts, 'explorer-ibc.png'), fullPage: true });

    // The receive tx opens on the EVM chain's tx page, by keyboard.
    await done.locator('a[data-tx="receive"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('h2:text-is("Transaction")', { timeout: 10_000 });
    expect(await page.locator('main').innerText()).toContain('recv_packet');
    expect(await page.inputValue('#chain')).toBe(evm.chainId);
    // The send tx opens on the hub's: the page switches chain.
    await page.goto(`${network.urls.routing}/explorer/#/ibc`);
    await page.locator(`#ibc a[href="${sendHref}"]`).click();
    await page.waitForSelector('h2:text-is("Transaction")', { timeout: 10_000 });
    const hubTx = await page.locator('main').innerText();
    expect(hubTx).toContain(sent.hash);
    expect(hubTx).toContain('send_packet');
    expect(await page.inputValue('#chain')).toBe(hub.chainId);

    // The hub tx's explorer_link page: it names the hub, and has no Ethereum hash row (the hub has no EVM face).
    await page.goto(`${network.urls.routing}/explorer/tx/${sent.hash}`);
    expect(await page.locator('p.chain').innerText()).toBe(`Chainlet Hub · ${hub.chainId}`);
    expect(await page.locator('th', { hasText: 'Ethereum hash' }).count()).toBe(0);
    expect(await page.locator('th', { hasText: 'Tx hash' }).count()).toBe(1);
    expect(await page.locator('body').innerText()).not.toContain('EVM chain');
    await page.screenshot({ path: join(artifacts, 'explorer-hub-tx.png'), fullPage: true });
    // The relayer's receive tx on the EVM chain is a Cosmos tx: the EVM chain is named, no Ethereum hash either.
    await page.goto(`${network.urls.routing}/explorer/tx/${receiveHref!.slice('#/tx/'.length).split('?')[0]}`);
    expect(await page.locator('p.chain').innerText()).toContain(evm.chainId);
    expect(await page.locator('th', { hasText: 'Ethereum hash' }).count()).toBe(0);

    // The receiver's account page: the voucher in display units, and the receive tx among its recent txs.
    await page.goto(`${network.urls.routing}/explorer/#/account/${receiver}`);
    await page.waitForSelector('.account .balance', { timeout: 10_000 });
    expect(await page.locator('main').innerText()).toContain('0.425242 HUB');
    expect(await page.locator(`.account a[href="${receiveHref}"]`).count()).toBe(1);
    // The sender's, on the hub: its send tx.
    await page.goto('about:blank');
    await page.goto(`${network.urls.routing}/explorer/#/account/${from!.address}`);
    await page.waitForSelector('.account .balance', { timeout: 10_000 });
    expect(await page.locator(`.account a[href="${sendHref}"]`).count()).toBe(1);
  }, 90_000);
});
