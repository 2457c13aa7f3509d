/**
 * GET /explorer/tx/<hash>: the page `explorer_link` points to. A minimal, readable HTML page with
 * the tx (hashes, from, to, value, nonce, gas), its block (height, hash, time) and its result
 * (code, log, gas used, events). Either hash form works. The page names the chain the tx is on and
 * shows only the rows that chain has (an Ethereum hash on a chain with an EVM face only); amounts
 * are in display units with the base amount on hover, times in the live explorer's one format.
 * All text is HTML-escaped.
 */
import { formatAmount } from './amount.js';
import type { Reply, RouteContext } from './context.js';
import { toHex, toHexUpper } from '../../crypto/encoding.js';
import type { FoundTx, PooledTx, RoutingChain } from './env.js';
import { LOGO_PATH } from './chains.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A cell's text, or a text with a hover title (an amount in display units, its base amount). */
type Cell = string | { text: string; title: string };
type Row = [label: string, value: Cell];

function cell(v: Cell): string {
  return typeof v === 'string' ? `<code>${escapeHtml(v)}</code>` : `<code title="${escapeHtml(v.title)}">${escapeHtml(v.text)}</code>`;
}

function table(title: string, rows: Row[]): string {
  const body = rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${cell(v)}</td></tr>`).join('\n');
  return `<section><h2>${escapeHtml(title)}</h2><table>\n${body}\n</table></section>`;
}

/** The chain a page is about: its name and ids (the EVM chain id only where the chain has that face). */
function chainLine(c: { prettyName: string; cosmosChainId: string; evmChainId: string }): string {
  return [c.prettyName, c.cosmosChainId, ...(c.evmChainId ? [`EVM chain ${c.evmChainId}`] : [])].filter(Boolean).join(' · ');
}

/** `2026-11-28T07:01:20.930123456Z` → `2026-11-28 07:01:20.930 UTC`: the live explorer's one time format. */
export function formatTime(rfc3339: string): string {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(rfc3339);
  return m ? `${m[1]} ${m[2]}.${`${m[3] ?? ''}000`.slice(0, 3)} UTC` : rfc3339;
}

/** `amount` in display units (decimals, no trailing zeros), the base amount and denom on hover. */
export function displayAmount(amount: bigint, decimals: number, symbol: string, denom: string): Cell {
  const [whole, frac = ''] = formatAmount(amount, decimals).split('.');
  const trimmed = frac.replace(/0+$/, '');
  return { text: `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${trimmed ? `.${trimmed}` : ''} ${symbol}`, title: `${amount} ${denom}` };
}

export function page(ctx: RouteContext, title: string, sections: string[], rc: RoutingChain | undefined = ctx.env.chains[0]): string {
  const c = rc?.chain ?? { prettyName: 'Chainlet', cosmosChainId: '', evmChainId: '' };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(c.prettyName)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#1b1f24}
header{display:flex;align-items:center;gap:.6em}header img{width:36px;height:36px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.3em .6em;border-bottom:1px solid #e3e6ea}
th{width:11em;color:#57606a;font-weight:500}code{word-break:break-all}.ok{color:#1a7f37}.err{color:#cf222e}
</style></head>
<body><header><img src="${LOGO_PATH}" alt=""><h1>${escapeHtml(title)}</h1></header>
<p class="chain">${escapeHtml(chainLine(c))}</p>
${sections.join('\n')}
</body></html>
`;
}

/** The address a deployment created, from the `ethereum_tx.recipient` attribute. */
function created(f: FoundTx): string | undefined {
  const e = f.result?.events.find((x) => x.type === 'ethereum_tx');
  return e?.attributes.find((a) => a.key === 'recipient')?.value;
}

/** A chain of slots (an SVM chain): no CometBFT hashes, indexes in block or proposers. */
const isSvm = (rc: RoutingChain): boolean => rc.face(rc.chain.cosmosChainId) === 'svm';

function txRows(rc: RoutingChain, cometHash: Uint8Array, ethHash: Uint8Array | undefined, f?: FoundTx, p?: PooledTx): Row[] {
  const c = rc.chain;
  // Each chain writes its hash its own way (an SVM chain: a base58 signature); only a chain with an EVM face has Ethereum hashes.
  const rows: Row[] = [[isSvm(rc) ? 'Signature' : 'Tx hash', rc.displayHash ? rc.displayHash(cometHash) : toHexUpper(cometHash)]];
  // (A Cosmos tx on the EVM chain, the relayer's say, has no Ethereum hash either: `f.eth` marks an Ethereum tx.)
  if (ethHash && c.evmChainId !== '' && (f ? f.eth !== undefined : true)) rows.push(['Ethereum hash', `0x${toHex(ethHash)}`]);
  if (f?.eth) {
    rows.push(
      ['From', f.eth.from],
      ['To', f.eth.to ?? `(contract creation${created(f) ? `: ${created(f)}` : ''})`],
      // The symbol /v2/fungible/assets gives the native asset (nativeAsset in assets.ts).
      ['Value', displayAmount(f.eth.value, c.decimals, c.displayDenom.toUpperCase(), c.denom)],
      ['Nonce', f.eth.nonce.toString()],
      ['Gas limit', f.eth.gasLimit.toString()],
      ['Type', String(f.eth.type)],
    );
  } else if (p) {
    rows.push(['From', p.sender], ['Nonce', p.nonce.toString()]);
  }
  const size = (f?.tx ?? p?.tx)?.length;
  if (size !== undefined) rows.push(['Size', `${size} bytes`]);
  return rows;
}

async function foundPage(ctx: RouteContext, rc: RoutingChain, f: FoundTx): Promise<string> {
  const block = await rc.block(f.height);
  const slots = isSvm(rc);
  const blockRows: Row[] = [[slots ? 'Slot' : 'Height', String(f.height)]];
  if (!slots) blockRows.push(['Index in block', String(f.index)]);
  if (block) {
    blockRows.push(
      [slots ? 'Blockhash' : 'Block hash', rc.displayHash ? rc.displayHash(block.hash) : toHexUpper(block.hash)],
      ['Time', formatTime(block.time)],
      ['Txs in block', String(block.numTxs)],
    );
    if (block.proposer.length > 0) blockRows.push(['Proposer', toHexUpper(block.proposer)]);
  }
  const o = f.outcome;
  const status = !o ? 'result pending' : o.ok ? 'success' : 'failed';
  const resultRows: Row[] = [['Status', status]];
  if (f.result) {
    resultRows.push(['Code', String(f.result.code)], ['Gas used', String(f.result.gasUsed)], ['Gas wanted', String(f.result.gasWanted)]);
    if (f.result.codespace) resultRows.push(['Codespace', f.result.codespace]);
    if (o && !o.ok) resultRows.push(['Error', o.log]);
    else if (f.result.log) resultRows.push(['Log', f.result.log]);
    for (const e of f.result.events) for (const a of e.attributes) resultRows.push([`${e.type}.${a.key}`, a.value]);
  }
  const cls = !o ? '' : o.ok ? 'ok' : 'err';
  return page(
    ctx,
    'Transaction',
    [
      `<p class="${cls}"><strong>${escapeHtml(status)}</strong></p>`,
      table('Transaction', txRows(rc, f.cometHash, f.ethHash, f)),
      table('Block', blockRows),
      table('Result', resultRows),
    ],
    rc,
  );
}

/**
 * The committed tx for `hash`. Without a tx indexer only the Ethereum hash finds a committed tx, so
 * a tx submitted or tracked here is also looked up by the other hashes the tracker knows it by
 * (otherwise the Cosmos-face `explorer_link` would die once the tx leaves the mempool).
 */
async function findCommitted(ctx: RouteContext, rc: RoutingChain, hash: Uint8Array): Promise<FoundTx | undefined> {
  const direct = await rc.findTx(hash);
  if (direct) return direct;
  const asked = toHex(hash);
  const tracked = ctx.tracker.get(hash);
  if (tracked?.chain !== rc) return undefined;
  for (const k of tracked.hashes) {
    if (k === asked) continue;
    const f = await rc.findTx(Uint8Array.from(Buffer.from(k, 'hex')));
    if (f) return f;
  }
  return undefined;
}

export async function handleExplorerTx(ctx: RouteContext, req: { txHash: Uint8Array }): Promise<Reply> {
  // A hash names one tx on one chain: look on each chain of the network.
  for (const rc of ctx.env.chains) {
    const f = await findCommitted(ctx, rc, req.txHash);
    if (f) return { kind: 'html', body: await foundPage(ctx, rc, f) };
  }
  for (const rc of ctx.env.chains) {
    const p = rc.pooledTx(req.txHash);
    if (p) {
      return {
        kind: 'html',
        body: page(
          ctx,
          'Transaction',
          [`<p><strong>pending</strong>: in the mempool, not yet in a block</p>`, table('Transaction', txRows(rc, p.cometHash, p.ethHash, undefined, p))],
          rc,
        ),
      };
    }
  }
  const hex = toHex(req.txHash);
  return {
    kind: 'html',
    status: 404,
    body: page(ctx, 'Transaction not found', [`<p>No transaction <code>${escapeHtml(hex)}</code> in a block or in the mempool of this node (yet).</p>`]),
  };
}

/** The HTML form of an error on an HTML route. */
export function errorPage(ctx: RouteContext, status: number, message: string): Reply {
  return { kind: 'html', status, body: page(ctx, `Error ${status}`, [`<p>${escapeHtml(message)}</p>`]) };
}
