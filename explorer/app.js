// Chainlet's live explorer: plain DOM, no framework. Reads the chain through this server's
// /explorer/api/comet, /eth and /svm (the chains' own RPCs: only the reads this page makes) and
// updates live from the node's CometBFT WebSocket subscriptions (NewBlock, NewRound, Vote, steps).
// IBC transfers come from /explorer/api/ibc (the network's packet index), re-read on each new block
// of the chain the page follows and every 2 s.
import { bech32Encode, fmtTime, fmtUnits, hexOf, parseAddress } from './format.js';

const view = document.getElementById('view');
const live = document.getElementById('live');
const state = {
  chain: null,
  ws: null,
  svm: null,
  genesisIndex: new Map(),
  config: null,
  height: 0,
  round: 0,
  step: '',
  proposer: '',
  validators: [],
  votes: new Map(),
  offline: new Set(),
  blocks: [],
  halted: '',
  mempool: { pending: [], queued: [] },
  ibc: { enabled: false, packets: [] },
};

const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const short = (h, n = 10) => (h && h.length > 2 * n + 3 ? h.slice(0, n) + '…' + h.slice(-6) : h || '');
const el = (html) => {
  const t = document.createElement('template');
  t.innerHTML = html.trim();
  return t.content.firstElementChild;
};
let rpcId = 0;
async function call(path, method, params) {
  const r = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const body = await r.json();
  if (body.error) throw new Error(body.error.data || body.error.message || JSON.stringify(body.error));
  return body.result;
}
/** The CometBFT RPC of a chain of the network (a `comet_chains` entry), through this server. */
const cometOf =
  (chain) =>
  (method, params = {}) =>
    call(`/explorer/api/comet${chain && !chain.evm ? `?chain=${encodeURIComponent(chain.chain_id)}` : ''}`, method, params);
const comet = (method, params = {}) => cometOf(state.chain)(method, params);
const eth = (method, params = []) => call('/explorer/api/eth', method, params);
const svm = (method, params = []) => call('/explorer/api/svm', method, params);
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

// ── amounts and times: display units (the routing API's /v2/fungible/assets), the base amount on hover ──
/** Display units of each asset, by `<chain id> <denom>`, and by denom alone (an IBC denom's base). */
const units = { byChain: new Map(), byDenom: new Map() };
async function loadAssets() {
  const r = await fetch('/v2/fungible/assets?include_evm_assets=true&include_svm_assets=true')
    .then((x) => (x.ok ? x.json() : null))
    .catch(() => null);
  if (!r) return;
  for (const [chainId, { assets }] of Object.entries(r.chain_to_assets_map || {})) {
    for (const a of assets) {
      if (typeof a.decimals !== 'number') continue;
      const u = { symbol: a.recommended_symbol || a.symbol || a.denom, decimals: a.decimals };
      units.byChain.set(`${chainId} ${a.denom}`, u);
      if (!a.denom.startsWith('ibc/') && !units.byDenom.has(a.denom)) units.byDenom.set(a.denom, u);
      if (a.origin_denom && !units.byDenom.has(a.origin_denom)) units.byDenom.set(a.origin_denom, u);
    }
  }
}
/** The unit of `denom` on `chainId`; an ICS-20 trace (`transfer/channel-0/uhub`) has its base's. */
const unitOf = (chainId, denom) =>
  units.byChain.get(`${chainId} ${denom}`) || units.byDenom.get(denom) || units.byDenom.get(String(denom).replace(/^([^/]+\/channel-\d+\/)+/, ''));
/** An amount in display units, its base amount and denom on hover. */
function amountHtml(amount, denom, chainId, unit = unitOf(chainId, denom)) {
  const base = `${BigInt(amount).toString()} ${denom}`;
  if (!unit) return `<span class="amount" title="${esc(base)}">${esc(base)}</span>`;
  return `<span class="amount" title="${esc(base)}">${esc(fmtUnits(amount, unit.decimals))} ${esc(unit.symbol)}</span>`;
}
/** The EVM chain's native token (its Cosmos face's denom), for Ethereum values. */
function evmNative() {
  const id = state.config.comet_chains.find((c) => c.evm)?.chain_id;
  for (const [k, u] of units.byChain) if (k.startsWith(`${id} `) && !k.includes('/') && !/ 0x/.test(k)) return { denom: k.slice(id.length + 1), unit: u };
  return { denom: 'wei', unit: { symbol: 'ETH', decimals: 18 } };
}
const weiHtml = (v) => {
  const n = evmNative();
  return amountHtml(BigInt(v), n.denom, null, n.unit);
};
const lamportsHtml = (v) => amountHtml(BigInt(v), 'lamports', null, { symbol: 'SOL', decimals: 9 });
const b64hex = (b) => Array.from(atob(b), (c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');
async function sha256Hex(b64) {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const d = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(d), (x) => x.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

// ── dashboard ──
function consensusSection() {
  const rows = state.validators
    .map((v) => {
      // The switch names a validator by its genesis index (the order the node runs them in).
      const i = state.genesisIndex.get(v.address);
      const vv = state.votes.get(v.address) || {};
      const cell = (t) =>
        vv[t] === undefined ? '<td class="vote-none">–</td>' : vv[t] ? '<td class="vote-yes">✓ block</td>' : '<td class="vote-nil">nil</td>';
      const off = state.offline.has(i);
      const sw =
        state.config && state.config.devnet_rpc && state.chain && state.chain.evm && i !== undefined
          ? `<td><button data-val="${i}" aria-pressed="${!off}">${off ? 'Bring online' : 'Take offline'}</button></td>`
          : '<td class="muted">devnet only</td>';
      return `<tr><td>${i ?? '?'}</td><td class="mono">${esc(short(v.address, 8))}${v.address === state.proposer ? ' <span class="pill">proposer</span>' : ''}</td><td>${esc(v.voting_power)}</td>${cell(1)}${cell(2)}<td class="${off ? 'err' : 'ok'}">${off ? 'offline' : 'online'}</td>${sw}</tr>`;
    })
    .join('');
  return `<section class="wide" id="consensus"><h2>Consensus</h2>
    <p><span class="big" id="height">${state.height}</span> height · round <strong id="round">${state.round}</strong> · step <strong id="step">${esc(state.step)}</strong>
    ${state.halted ? `<br><strong class="err" id="halted">Chain halted: ${esc(state.halted)}</strong>` : ''}${state.controlError ? `<br><span class="err">${esc(state.controlError)}</span>` : ''}</p>
    <table class="votes"><thead><tr><th>#</th><th>validator</th><th>power</th><th>prevote</th><th>precommit</th><th>status</th><th>switch</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}
/** One block's rows (the block, then its txs) in a tbody of their own, keyed by height and hash. */
const blockKey = (b) => `${b.height}-${b.hash}`;
const blockGroup = (b) =>
  `<tbody data-k="${blockKey(b)}"><tr><td><a href="#/block/${b.height}">${b.height}</a></td><td class="nowrap">${esc(fmtTime(b.time))}</td><td>${b.txs.length}</td><td class="mono">${esc(short(b.proposer, 6))}</td><td class="mono">${esc(short(b.hash, 8))}</td></tr>` +
  b.txs.map((t) => `<tr><td></td><td colspan="4" class="mono">↳ <a href="#/tx/${t}">${esc(short(t, 12))}</a></td></tr>`).join('') +
  '</tbody>';
const SHOWN_BLOCKS = 12;
function blocksSection() {
  return `<section id="blocks"><h2>Latest blocks</h2><table><thead><tr><th>height</th><th>time</th><th>txs</th><th>proposer</th><th>hash</th></tr></thead>${state.blocks.slice(0, SHOWN_BLOCKS).map(blockGroup).join('')}</table></section>`;
}
/**
 * The blocks table as new blocks arrive: the rows of blocks already shown stay in the page (a block's
 * rows never change), so a link in them is not replaced under the pointer every block; new ones are
 * added above, the oldest removed.
 */
function updateBlocks(section) {
  const table = section.querySelector('table');
  const have = new Map([...table.tBodies].map((t) => [t.dataset.k, t]));
  let prev = table.tHead;
  for (const b of state.blocks.slice(0, SHOWN_BLOCKS)) {
    const key = blockKey(b);
    let group = have.get(key);
    have.delete(key);
    if (!group) {
      const tpl = document.createElement('template');
      tpl.innerHTML = `<table>${blockGroup(b)}</table>`;
      group = tpl.content.querySelector('tbody');
    }
    if (prev.nextElementSibling !== group) prev.after(group);
    prev = group;
  }
  for (const stale of have.values()) stale.remove();
}
function mempoolSection() {
  const m = state.mempool;
  const row = (t, kind) =>
    `<tr><td class="mono">${esc(short(t.sender, 8))}</td><td>${esc(t.nonce)}</td><td class="${kind === 'queued' ? 'warn' : 'ok'}">${kind}</td><td class="mono">${esc(short(t.hash, 10))}</td></tr>`;
  const rows =
    [...m.pending.map((t) => row(t, 'pending')), ...m.queued.map((t) => row(t, 'queued'))].join('') || '<tr><td colspan="4" class="muted">empty</td></tr>';
  return `<section id="mempool"><h2>Mempool (${m.pending.length} pending, ${m.queued.length} queued)</h2><table><thead><tr><th>sender</th><th>nonce</th><th></th><th>hash</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}
function svmSection() {
  if (!state.svm) return '';
  return `<section id="svm"><h2>SVM chain (LiteSVM)</h2><p><span class="big" id="slot">${state.svm.slot}</span> slot · block height ${state.svm.blockHeight}</p><p class="muted">Search a base58 signature or address for Solana txs and accounts.</p></section>`;
}
/** The HTML each dashboard section was last rendered from, by id. */
let shown = new Map();
// IBC transfers: one row per packet, newest first, with the txs that moved it on each chain.
const IBC_STATES = { TRANSFER_PENDING: 'pending', TRANSFER_RECEIVED: 'received', TRANSFER_SUCCESS: 'done', TRANSFER_FAILURE: 'failed' };
/** A tx of a packet: a link to the tx page of its chain (the `chain` parameter switches the page to it). */
function packetTxLink(kind, t) {
  if (!t) return '';
  const known = state.config && state.config.comet_chains.some((c) => c.chain_id === t.chain_id);
  const label = `<span>${kind}</span> <span class="mono">${esc(short(t.tx_hash, 6))}</span>`;
  const title = `${kind} tx on ${t.chain_id}: ${t.tx_hash}${t.on_chain_at ? ` (${fmtTime(t.on_chain_at)})` : ''}`;
  return `<li>${known ? `<a href="#/tx/${esc(t.tx_hash)}?chain=${encodeURIComponent(t.chain_id)}" data-tx="${kind}" title="${esc(title)}">${label}</a>` : `<span title="${esc(title)}">${label}</span>`} <span class="muted">on ${esc(t.chain_id)}</span></li>`;
}
function ibcSection(limit) {
  const { enabled, packets } = state.ibc;
  if (!enabled) return '';
  const inFlight = packets.filter((p) => p.state === 'TRANSFER_PENDING' || p.state === 'TRANSFER_RECEIVED').length;
  const done = packets.filter((p) => p.state === 'TRANSFER_SUCCESS').length;
  const failed = packets.filter((p) => p.state === 'TRANSFER_FAILURE').length;
  const rows =
    packets
      .slice(0, limit)
      .map((p) => {
        const label = IBC_STATES[p.state] || p.state;
        const txs =
          packetTxLink('send', p.send_tx) +
          packetTxLink('receive', p.receive_tx) +
          packetTxLink('acknowledge', p.acknowledge_tx) +
          packetTxLink('timeout', p.timeout_tx);
        return `<tr data-packet="${esc(`${p.src_chain_id}/${p.src_channel}/${p.sequence}`)}" data-state="${esc(p.state)}">
      <td><span class="nowrap">${esc(p.src_chain_id)} <span class="muted">${esc(p.src_channel)}</span></span><br><span class="nowrap">→ ${esc(p.dst_chain_id || '?')} <span class="muted">${esc(p.dst_channel)}</span></span></td>
      <td>${esc(p.sequence)}</td>
      <td><strong>${amountHtml(p.amount, p.denom, p.src_chain_id)}</strong>${unitOf(p.src_chain_id, p.denom) ? '' : ` <span class="mono" title="${esc(p.denom)}">${esc(short(p.denom, 12))}</span>`}</td>
      <td class="mono"><span title="${esc(p.sender)}">${esc(short(p.sender, 12))}</span><br>→ <span title="${esc(p.receiver)}">${esc(short(p.receiver, 12))}</span></td>
      <td><span class="badge st-${esc(label)}">${esc(label)}</span>${p.state === 'TRANSFER_FAILURE' && p.error ? `<br><span class="err ibc-error">${esc(p.error)}</span>` : ''}</td>
      <td><ul class="ibc-txs">${txs}</ul></td></tr>`;
      })
      .join('') || '<tr><td colspan="6" class="muted">no transfers yet</td></tr>';
  const more = packets.length > limit ? ` <a href="#/ibc">all ${packets.length} →</a>` : '';
  return `<section class="wide" id="ibc" aria-labelledby="ibc-title"><h2 id="ibc-title">IBC transfers (${inFlight} in flight, ${done} done${failed ? `, ${failed} failed` : ''})${more}</h2>
    <table class="ibc"><thead><tr><th>source → destination</th><th>seq</th><th>amount</th><th>sender → receiver</th><th>state</th><th>txs</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}
const DASHBOARD_IBC_ROWS = 10;
function ibcPage() {
  const html = state.ibc.enabled
    ? ibcSection(Infinity)
    : '<section class="wide" id="ibc"><h2>IBC transfers</h2><p class="muted">This node runs no IBC (start a network with the EVM chain and the hub).</p></section>';
  view.innerHTML = html;
  shown = new Map([['ibc', html]]);
}

/** The element keeping the focus across a re-render: the same id, link or switch in the same section. */
function focusKey(e) {
  if (!e || e === view || !view.contains(e)) return null;
  const sec = e.closest('section[id]');
  const scope = sec ? `#${CSS.escape(sec.id)} ` : '';
  if (e.id) return `#${CSS.escape(e.id)}`;
  if (e.getAttribute('href')) return `${scope}a[href="${CSS.escape(e.getAttribute('href'))}"]`;
  if (e.dataset.val !== undefined) return `${scope}button[data-val="${CSS.escape(e.dataset.val)}"]`;
  return null;
}
/** Re-renders without losing the keyboard's place: live updates arrive several times a second. */
function keepFocus(render) {
  const key = focusKey(document.activeElement);
  render();
  if (key) {
    const n = view.querySelector(key);
    if (n && n !== document.activeElement) n.focus({ preventScroll: true });
  }
}
const sectionId = (html) => (html.match(/^<section[^>]*\bid="([^"]+)"/) || [])[1];
function renderDashboard() {
  if (location.hash && location.hash !== '#/') return;
  const parts = [consensusSection(), blocksSection(), mempoolSection(), ibcSection(DASHBOARD_IBC_ROWS), svmSection()].filter(Boolean);
  const ids = parts.map(sectionId);
  keepFocus(() => {
    // Only the sections whose content changed are replaced (votes arrive several times a second):
    // a link being clicked or focused in another section stays in the page.
    const children = [...view.children];
    if (children.length === ids.length && children.every((c, i) => c.id === ids[i])) {
      parts.forEach((h, i) => {
        if (shown.get(ids[i]) === h) return;
        if (ids[i] === 'blocks') updateBlocks(children[i]);
        else children[i].outerHTML = h;
        shown.set(ids[i], h);
      });
    } else {
      view.innerHTML = parts.join('');
      shown = new Map(ids.map((id, i) => [id, parts[i]]));
    }
  });
}
/** Replaces one section of the dashboard in place (a timer's update between blocks). */
function updateSection(id, html) {
  const e = document.getElementById(id);
  if (!e) {
    if (html) renderDashboard();
    return;
  }
  if (shown.get(id) === html && e.parentElement === view) return;
  if (html) shown.set(id, html);
  else shown.delete(id);
  keepFocus(() => {
    e.outerHTML = html;
  });
}

// ── pages ──
const table = (title, rows, cls = '') =>
  `<section class="${cls}"><h2>${esc(title)}</h2><table><tbody>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join('')}</tbody></table></section>`;
const code = (s) => `<code>${esc(s)}</code>`;
async function blockPage(h) {
  const [b, c] = await Promise.all([comet('block', { height: String(h) }), comet('commit', { height: String(h) }).catch(() => null)]);
  const hd = b.block.header;
  const txs = await Promise.all((b.block.data.txs || []).map(sha256Hex));
  const sigs = c
    ? c.signed_header.commit.signatures.map((s, i) => [
        `validator ${i}`,
        `${code(short(s.validator_address, 10))} ${s.block_id_flag === 2 ? '<span class="ok">signed</span>' : s.block_id_flag === 3 ? '<span class="warn">nil</span>' : '<span class="err">absent</span>'}`,
      ])
    : [];
  view.innerHTML =
    table(
      `Block ${h}`,
      [
        ['hash', code(b.block_id.hash)],
        ['time', esc(fmtTime(hd.time))],
        ['chain', code(hd.chain_id)],
        ['proposer', code(hd.proposer_address)],
        ['app hash', code(hd.app_hash)],
        ['data hash', code(hd.data_hash)],
        ['validators hash', code(hd.validators_hash)],
        ['last block', `<a href="#/block/${Number(h) - 1}">${esc(hd.last_block_id.hash)}</a>`],
        ['txs', txs.map((t) => `<a href="#/tx/${t}" class="mono">${esc(t)}</a>`).join('<br>') || '–'],
      ],
      'wide',
    ) + table('Commit signatures', sigs, 'wide');
}
async function txPage(hash) {
  const rows = [];
  let evmHash = hash.startsWith('0x') ? hash : null;
  if (!evmHash) {
    // JSON-RPC bytes params are base64 (jsonpb), as CometBFT reads them.
    const t = await comet('tx', { hash: btoa(String.fromCharCode(...hash.match(/../g).map((x) => parseInt(x, 16)))) });
    const r = t.tx_result;
    rows.push(
      ['hash', code(t.hash)],
      ['block', `<a href="#/block/${t.height}">${t.height}</a>`],
      ['result', r.code === 0 ? '<span class="ok">success</span>' : `<span class="err">code ${r.code}</span> ${code(r.log)}`],
      ['gas', `${esc(r.gas_used)} / ${esc(r.gas_wanted)}`],
    );
    const ev = (r.events || []).find((e) => e.type === 'ethereum_tx');
    const h = ev && (ev.attributes || []).find((a) => a.key === 'ethereumTxHash');
    if (h) evmHash = h.value;
    const msgs = (r.events || []).filter((e) => e.type === 'message').map((e) => (e.attributes || []).map((a) => `${a.key}=${a.value}`).join(' '));
    if (msgs.length && !evmHash) rows.push(['kind', 'Cosmos tx'], ['messages', msgs.map(code).join('<br>')]);
    rows.push([
      'events',
      (r.events || [])
        .map((e) => `<strong>${esc(e.type)}</strong> ${(e.attributes || []).map((a) => `${esc(a.key)}=${code(a.value)}`).join(' ')}`)
        .join('<br>'),
    ]);
  }
  if (evmHash) {
    const [tx, rc] = await Promise.all([eth('eth_getTransactionByHash', [evmHash]), eth('eth_getTransactionReceipt', [evmHash])]);
    if (tx) {
      rows.unshift(
        ['kind', 'Ethereum tx'],
        ['EVM hash', code(evmHash)],
        ['from', `<a href="#/account/${tx.from}">${esc(tx.from)}</a>`],
        ['to', tx.to ? `<a href="#/account/${tx.to}">${esc(tx.to)}</a>` : 'contract creation'],
        ['value', weiHtml(tx.value)],
        ['nonce', esc(BigInt(tx.nonce).toString())],
      );
      if (rc)
        rows.push(
          ['status', rc.status === '0x1' ? '<span class="ok">success</span>' : '<span class="err">reverted</span>'],
          ['gas used', esc(BigInt(rc.gasUsed).toString())],
          ['logs', rc.logs.map((l) => `${code(l.address)} ${l.topics.map(code).join(' ')}`).join('<br>') || '–'],
        );
      if (hash.startsWith('0x') && rc) rows.push(['block', `<a href="#/block/${BigInt(rc.blockNumber)}">${BigInt(rc.blockNumber)}</a>`]);
    }
  }
  view.innerHTML = table('Transaction', rows, 'wide');
}
async function solanaTxPage(sig) {
  const t = await svm('getTransaction', [sig, { encoding: 'json', maxSupportedTransactionVersion: 0 }]);
  if (!t) throw new Error(`no Solana transaction ${sig}`);
  const keys = t.transaction.message.accountKeys;
  const bal = keys
    .map(
      (k, i) =>
        `<a href="#/account/${k}" class="mono">${esc(short(k, 8))}</a> ${lamportsHtml(t.meta.preBalances[i])} → ${lamportsHtml(t.meta.postBalances[i])}`,
    )
    .join('<br>');
  view.innerHTML = table(
    'Solana tx',
    [
      ['signature', code(sig)],
      ['slot', esc(t.slot)],
      ['status', t.meta.err === null ? '<span class="ok">success</span>' : `<span class="err">failed</span> ${code(JSON.stringify(t.meta.err))}`],
      ['fee', lamportsHtml(t.meta.fee)],
      ['compute units', esc(t.meta.computeUnitsConsumed)],
      ['accounts (pre → post)', bal],
      ['logs', (t.meta.logMessages || []).map(code).join('<br>') || '–'],
    ],
    'wide',
  );
}

/** Whether a face of a chain (a config `chains` entry) takes this address form. */
const takes = (c, a) => (a.form === 'bech32' ? c.address_forms.includes('bech32') && c.bech32_prefix === a.prefix : c.address_forms.includes(a.form));
/** The address on face `c` of the account `a` names: the same bytes in the form that face writes. */
const addressOn = (c, a, input) => (takes(c, a) ? input : a.bytes && c.address_forms.includes('hex') ? hexOf(a.bytes) : input);
/** The assets of a face worth asking balances of: the Cosmos face lists the native token once. */
function denomsOf(c, group) {
  const prefix = `${c.chain_id} `;
  let denoms = [...units.byChain.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  if (c.chain_type === 'evm' && group.some((x) => x.chain_type === 'cosmos')) denoms = denoms.filter((d) => /^(erc20\/)?0x/.test(d));
  return denoms;
}
/** Recent txs of an account on a CometBFT-style chain: tx_search by the events that name it (newest first). */
async function recentTxs(chainId, queries) {
  const c = state.config.comet_chains.find((x) => x.chain_id === chainId);
  if (!c) return [];
  const found = await Promise.all(queries.map((q) => cometOf(c)('tx_search', { query: q, per_page: '10', order_by: 'desc' }).catch(() => ({ txs: [] }))));
  const byHash = new Map();
  for (const r of found) for (const t of r.txs || []) byHash.set(t.hash, t);
  return [...byHash.values()].sort((x, y) => Number(y.height) - Number(x.height) || Number(y.index) - Number(x.index)).slice(0, 10);
}
function txRow(chainId, t) {
  const r = t.tx_result || {};
  const actions = (r.events || []).flatMap((e) => (e.type === 'message' ? e.attributes || [] : [])).filter((x) => x.key === 'action');
  const kind = [...new Set(actions.map((x) => x.value.replace(/^.*\./, '').replace(/^MsgEthereumTx$/, 'Ethereum tx')))].join(', ');
  return `<tr><td><a href="#/tx/${esc(t.hash)}?chain=${encodeURIComponent(chainId)}" class="mono">${esc(short(t.hash, 10))}</a></td><td><a href="#/block/${esc(t.height)}?chain=${encodeURIComponent(chainId)}">${esc(t.height)}</a></td><td>${esc(kind)}</td><td>${r.code ? `<span class="err">failed (code ${esc(r.code)})</span>` : '<span class="ok">success</span>'}</td></tr>`;
}

/** An account: its balances on every chain that takes the address's form, its nonce and code, its recent txs. */
async function accountPage(input) {
  const a = parseAddress(input);
  if (!a)
    throw new Error(
      `${input} is not an address: expected 0x hex, bech32 (${[...new Set(state.config.chains.map((c) => c.bech32_prefix).filter(Boolean))].map((p) => `${p}1…`).join(', ')}) or a base58 Solana public key`,
    );
  const faces = state.config.chains.filter((c) => takes(c, a));
  if (faces.length === 0) throw new Error(`no chain of this network takes the address ${input}`);
  // The faces of each chain holding this account (an EVM chain's Cosmos and EVM faces: one account).
  // 0x and bech32 are the same 20 bytes on a chain whose faces take both: all of its faces are in.
  const sameBytes = (c) => a.bytes && c.address_forms.includes('hex') && faces.some((f) => f.account === c.account && f.address_forms.includes('hex'));
  const groups = new Map();
  for (const c of state.config.chains) {
    if (!faces.some((f) => f.account === c.account) || !(takes(c, a) || sameBytes(c))) continue;
    if (!groups.has(c.account)) groups.set(c.account, []);
    groups.get(c.account).push(c);
  }
  const sections = [];
  for (const group of groups.values()) {
    const cosmos = group.find((c) => c.chain_type === 'cosmos');
    const name = group[0].pretty_name.replace(/ EVM$/, '');
    const rows = [];
    const forms = new Set(group.map((c) => addressOn(c, a, input)));
    if (cosmos && a.bytes) forms.add(bech32Encode(cosmos.bech32_prefix, a.bytes));
    rows.push(['address', [...forms].map(code).join('<br>')]);
    const chains = {};
    for (const c of group) {
      const denoms = denomsOf(c, group);
      if (denoms.length || c.chain_type !== 'evm') chains[c.chain_id] = { address: addressOn(c, a, input), denoms };
    }
    const r = await fetch('/v2/info/balances', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chains }) })
      .then((x) => x.json())
      .catch((e) => ({ message: e.message }));
    if (!r.chains) rows.push(['balances', `<span class="err">${esc(r.message || 'unavailable')}</span>`]);
    for (const [id, c] of Object.entries(r.chains || {})) {
      for (const [denom, d] of Object.entries(c.denoms)) {
        if (d.error) {
          rows.push([denom, `<span class="err">${esc(d.error.message)}</span>`]);
          continue;
        }
        if (d.amount === '0' && (denom.startsWith('ibc/') || /0x|^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(denom))) continue; // tokens it holds none of
        const u = unitOf(id, denom) || (typeof d.decimals === 'number' ? { symbol: denom, decimals: d.decimals } : undefined);
        const what = denom.startsWith('ibc/') ? 'balance (IBC voucher)' : /0x|^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(denom) ? 'balance (token)' : 'balance';
        // A Skip-style native denom (`solana-native`) has a real base unit name on an SVM chain.
        const base = denom.endsWith('-native') && group.some((c) => c.chain_id === id && c.chain_type === 'svm') ? 'lamports' : denom;
        rows.push([what, `<span class="balance">${amountHtml(d.amount, base, id, u)}</span>`]);
      }
    }
    const evm = group.find((c) => c.chain_type === 'evm');
    if (evm && a.bytes && state.config.eth && cosmos && state.config.comet_chains.some((x) => x.evm && x.chain_id === cosmos.chain_id)) {
      const hex = hexOf(a.bytes);
      const [nonce, codeHex] = await Promise.all([eth('eth_getTransactionCount', [hex, 'latest']), eth('eth_getCode', [hex, 'latest'])]);
      rows.push(['nonce', esc(BigInt(nonce).toString())], ['code', codeHex === '0x' ? 'none (an account)' : `${(codeHex.length - 2) / 2} bytes (a contract)`]);
    }
    let txs = '';
    if (cosmos && a.bytes) {
      const b = bech32Encode(cosmos.bech32_prefix, a.bytes);
      const qs = [`message.sender='${b}'`, `transfer.recipient='${b}'`];
      if (group.some((c) => c.address_forms.includes('hex'))) {
        const h = hexOf(a.bytes);
        qs.push(`message.sender='${h}'`, `ethereum_tx.recipient='${h}'`);
      }
      const list = await recentTxs(cosmos.chain_id, qs);
      txs = `<h3>Recent txs</h3>${list.length ? `<table class="txs"><thead><tr><th>tx</th><th>block</th><th>kind</th><th>result</th></tr></thead><tbody>${list.map((t) => txRow(cosmos.chain_id, t)).join('')}</tbody></table>` : '<p class="muted">none in this node’s index</p>'}`;
    }
    if (a.form === 'base58' && group.some((c) => c.chain_type === 'svm') && state.config.svm) {
      // The SVM chain's own index of the txs naming an address (confirmed: the latest slots too).
      const sigs = await svm('getSignaturesForAddress', [input, { limit: 10, commitment: 'confirmed' }]).catch(() => null);
      if (sigs)
        txs = `<h3>Recent txs</h3>${sigs.length ? `<table class="txs"><thead><tr><th>signature</th><th>slot</th><th>time</th><th>result</th></tr></thead><tbody>${sigs.map((x) => `<tr><td><a href="#/sol-tx/${esc(x.signature)}" class="mono">${esc(short(x.signature, 10))}</a></td><td>${esc(x.slot)}</td><td class="nowrap">${x.blockTime ? esc(fmtTime(new Date(x.blockTime * 1000).toISOString())) : '–'}</td><td>${x.err ? '<span class="err">failed</span>' : '<span class="ok">success</span>'}</td></tr>`).join('')}</tbody></table>` : '<p class="muted">none</p>'}`;
    }
    const ids = group.map((c) => c.chain_id).join(' · ');
    sections.push(
      `<section class="wide account" data-chain="${esc(group[0].account)}"><h2>${esc(name)} <span class="muted">${esc(ids)}</span></h2><table><tbody>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join('')}</tbody></table>${txs}</section>`,
    );
  }
  view.innerHTML = `<section class="wide"><h2>Account</h2><p>${code(input)}</p></section>` + sections.join('');
}

async function route() {
  // `?chain=<id>` (links of the IBC view) opens a page of another CometBFT-style chain of the network.
  const [path, query] = location.hash.split('?');
  const chainId = new URLSearchParams(query || '').get('chain');
  const m = path.match(/^#\/(block|tx|sol-tx|account)\/(.+)$/);
  try {
    if (chainId && state.chain && chainId !== state.chain.chain_id) {
      const c = state.config.comet_chains.find((x) => x.chain_id === chainId);
      if (!c) throw new Error(`no CometBFT chain ${chainId} in this network`);
      document.getElementById('chain').value = c.chain_id;
      await useChain(c);
    }
    if (path === '#/ibc') ibcPage();
    else if (!m) return renderDashboard();
    else if (m[1] === 'block') await blockPage(m[2]);
    else if (m[1] === 'tx') await txPage(m[2]);
    else if (m[1] === 'sol-tx') await solanaTxPage(m[2]);
    else await accountPage(decodeURIComponent(m[2]));
    view.focus();
  } catch (e) {
    view.innerHTML = `<section class="wide"><h2>Not found</h2><p class="err">${esc(e.message)}</p><p><a href="#/">Back to the dashboard</a></p></section>`;
  }
}

document.getElementById('search').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const q = document.getElementById('q').value.trim();
  if (/^\d+$/.test(q)) location.hash = `#/block/${q}`;
  else if (/^(0x)?[0-9a-fA-F]{64}$/.test(q)) location.hash = `#/tx/${q}`;
  else if (BASE58.test(q) && q.length > 44 && !parseAddress(q)) location.hash = `#/sol-tx/${q}`;
  else if (q) location.hash = `#/account/${encodeURIComponent(q)}`;
});
document.addEventListener('keydown', (ev) => {
  if (ev.key === '/' && document.activeElement.tagName !== 'INPUT') {
    ev.preventDefault();
    document.getElementById('q').focus();
  }
});
view.addEventListener('click', async (ev) => {
  const b = ev.target.closest('button[data-val]');
  if (!b) return;
  const i = Number(b.dataset.val);
  const online = state.offline.has(i);
  try {
    // Devnet control is never proxied: the switch calls the node's own Ethereum JSON-RPC (its CORS applies).
    await call(state.config.devnet_rpc, 'chainlet_setValidatorOnline', [i, online]);
    if (online) state.offline.delete(i);
    else state.offline.add(i);
    state.controlError = '';
  } catch (e) {
    state.controlError = `The node's JSON-RPC at ${state.config.devnet_rpc} refused the switch: ${e.message}`;
  }
  renderDashboard();
});
window.addEventListener('hashchange', route);

// ── live data ──
async function loadBlock(h) {
  const b = await comet('block', { height: String(h) });
  const txs = await Promise.all((b.block.data.txs || []).map(sha256Hex));
  return { height: Number(h), time: b.block.header.time, proposer: b.block.header.proposer_address, hash: b.block_id.hash, txs };
}
async function refreshMempool() {
  if (state.chain && !state.chain.evm) {
    // Another chain's mempool: its pending txs as CometBFT lists them (no per-sender view there).
    const u = await comet('unconfirmed_txs', { limit: '30' }).catch(() => null);
    const hashes = u ? await Promise.all((u.txs || []).map(sha256Hex)) : [];
    state.mempool = { pending: hashes.map((hash) => ({ sender: '', nonce: '', hash })), queued: [] };
    return;
  }
  state.mempool = await fetch('/explorer/api/mempool')
    .then((r) => (r.ok ? r.json() : { pending: [], queued: [] }))
    .catch(() => ({ pending: [], queued: [] }));
}
let ibcReading = null;
let ibcAgain = false;
/** Re-reads the IBC transfers (one read at a time; a call during a read asks for one more) and shows them. */
async function refreshIbc() {
  if (ibcReading) {
    ibcAgain = true;
    return ibcReading;
  }
  ibcReading = (async () => {
    do {
      ibcAgain = false;
      const r = await fetch('/explorer/api/ibc')
        .then((x) => (x.ok ? x.json() : null))
        .catch(() => null);
      if (r) state.ibc = r;
    } while (ibcAgain);
  })();
  try {
    await ibcReading;
  } finally {
    ibcReading = null;
  }
  document.getElementById('ibc-link').hidden = !state.ibc.enabled;
  if (location.hash === '#/ibc') updateSection('ibc', ibcSection(Infinity));
  else if (!location.hash || location.hash === '#/') updateSection('ibc', ibcSection(DASHBOARD_IBC_ROWS));
}
function subscribe() {
  if (state.ws) {
    state.ws.onclose = null;
    state.ws.close();
  }
  const ws = new WebSocket(state.chain.ws);
  state.ws = ws;
  let id = 0;
  live.textContent = 'connecting…';
  live.className = 'pill';
  const queries = ["tm.event='NewBlock'", "tm.event='NewRound'", "tm.event='Vote'", "tm.event='TimeoutPropose'", "tm.event='ChainHalted'"];
  let acknowledged = 0;
  ws.onopen = () => {
    // CometBFT allows 5 subscriptions per client by default (max_subscriptions_per_client).
    for (const q of queries) ws.send(JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'subscribe', params: { query: q } }));
  };
  ws.onclose = () => {
    live.textContent = 'disconnected';
    live.className = 'pill err';
    setTimeout(() => {
      if (state.ws === ws) subscribe();
    }, 2000);
  };
  ws.onmessage = async (m) => {
    const msg = JSON.parse(m.data);
    const d = msg.result && msg.result.data;
    if (!d) {
      // "live" once every subscription is acknowledged: events from here on reach the page.
      if (msg.result && ++acknowledged === queries.length) {
        live.textContent = 'live';
        live.className = 'pill ok';
      }
      return;
    }
    const t = d.type.replace(/^.*\//, '');
    const v = d.value;
    if (t === 'NewBlock') {
      const h = Number(v.block.header.height);
      state.halted = '';
      state.blocks.unshift(await loadBlock(h));
      state.blocks.length = Math.min(state.blocks.length, 30);
      if (state.ibc.enabled) refreshIbc(); // a packet's send, receive or acknowledgement may be in it
      await refreshMempool();
    } else if (t === 'NewRound') {
      const h = Number(v.height);
      if (h !== state.height) state.votes = new Map();
      state.height = h;
      state.round = v.round;
      state.step = v.step;
      state.proposer = v.proposer.address;
    } else if (t === 'Vote') {
      const vote = v.Vote;
      if (Number(vote.height) !== state.height) return;
      const e = state.votes.get(vote.validator_address) || {};
      e[vote.type] = Boolean(vote.block_id && vote.block_id.hash);
      state.votes.set(vote.validator_address, e);
      state.step = vote.type === 1 ? 'RoundStepPrevote' : 'RoundStepPrecommit';
    } else if (t === 'RoundState' || t === 'CompleteProposal') {
      state.round = v.round;
      state.step = v.step;
    } else if (t === 'ChainHalted') {
      state.halted = v.reason;
    } else if (t === 'Tx') {
      await refreshMempool();
    }
    renderDashboard();
  };
}

/** Loads a CometBFT-style chain of the network into the dashboard and subscribes to it. */
async function useChain(chain) {
  state.chain = chain;
  state.blocks = [];
  state.votes = new Map();
  state.offline = new Set();
  state.genesisIndex = new Map();
  state.halted = '';
  const [status, vals, gen] = await Promise.all([comet('status'), comet('validators', { per_page: '100' }), comet('genesis')]);
  state.validators = vals.validators;
  gen.genesis.validators.forEach((v, i) => state.genesisIndex.set(v.address, i));
  state.height = Number(status.sync_info.latest_block_height) + 1;
  const latest = Number(status.sync_info.latest_block_height);
  for (let h = latest; h >= Math.max(1, latest - 9); h--) state.blocks.push(await loadBlock(h));
  if (chain.ws) subscribe();
  else {
    live.textContent = 'no WebSocket';
    live.className = 'pill warn';
  }
  await refreshMempool();
  renderDashboard();
}

/**
 * Runs `fn` every `ms` while the page is visible: a tab in the background asks the node nothing,
 * and catches up at once when shown again.
 */
function whileVisible(ms, fn) {
  setInterval(() => {
    if (document.visibilityState !== 'hidden') fn();
  }, ms);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') fn();
  });
}

async function start() {
  state.config = await fetch('/explorer/api/config').then((r) => r.json());
  await loadAssets();
  const select = document.getElementById('chain');
  for (const c of state.config.comet_chains) select.append(new Option(c.chain_id, c.chain_id));
  select.addEventListener('change', () => useChain(state.config.comet_chains.find((c) => c.chain_id === select.value)));
  await useChain(state.config.comet_chains[0]);
  await refreshMempool();
  // Admission has no CometBFT event: the mempool is re-read each second.
  whileVisible(1000, async () => {
    await refreshMempool();
    if (!location.hash || location.hash === '#/') updateSection('mempool', mempoolSection());
  });
  // IBC transfers: re-read on each new block of the followed chain, and every 2 s (the other chain's blocks).
  await refreshIbc();
  if (state.ibc.enabled) whileVisible(2000, refreshIbc);
  if (state.config.svm) {
    const pollSvm = async () => {
      const [slot, blockHeight] = await Promise.all([svm('getSlot'), svm('getBlockHeight')]).catch(() => [null, null]);
      if (slot !== null) {
        state.svm = { slot, blockHeight };
        const e = document.getElementById('slot');
        if (e) e.textContent = slot;
        else renderDashboard();
      }
    };
    await pollSvm();
    whileVisible(1000, pollSvm);
  }
  await route();
}
start().catch((e) => {
  view.innerHTML = `<section class="wide"><h2>The explorer could not start</h2><p class="err">${esc(e.message)}</p></section>`;
});
