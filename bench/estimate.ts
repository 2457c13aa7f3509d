/**
 * npm run bench:estimate — latency of eth_estimateGas and eth_call for an ERC20 transfer:
 *
 *   raw         one `evm.runCall` of the transfer on a warm MerkleStateManager, plain (state kept:
 *               the cheapest run) and inside checkpoint/revert (every run does the same work); the
 *               ratios use the plain one, the lower floor
 *   in-process  through the EIP-1193 provider (dispatcher, params, env, executor; no HTTP)
 *   http        a real HTTP/1.1 keep-alive connection to the node's JSON-RPC server
 *
 * Prints p50 / p95 in milliseconds per path and, last, one JSON object with every figure.
 * Env: BENCH_N (measured iterations, default 2000), BENCH_WARMUP (default 300).
 */
import { connect, type Socket } from 'node:net';
import { createEVM } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import { erc20DeployData, erc20TransferData } from '../src/app/fixtures/erc20.js';
import { createEip1193Provider } from '../src/node/rpc-eth.js';
import { startEthRpc } from '../src/node/rpc-eth.js';
import { startTestNode } from '../test/helpers/node.js';

const N = Number(process.env['BENCH_N'] ?? 2000);
const WARMUP = Number(process.env['BENCH_WARMUP'] ?? 300);

interface Stats {
  p50: number;
  p95: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => Number(s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(4));
  return { p50: at(0.5), p95: at(0.95) };
}

async function measure(name: string, fn: () => Promise<unknown>): Promise<Stats> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const samples: number[] = new Array(N);
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await fn();
    samples[i] = performance.now() - t;
  }
  const st = stats(samples);
  console.log(`${name.padEnd(26)} p50 ${st.p50.toFixed(3)} ms   p95 ${st.p95.toFixed(3)} ms`);
  return st;
}

/** A minimal HTTP/1.1 keep-alive client: one request in flight, Content-Length framing. */
class HttpConn {
  private buf: Buffer = Buffer.alloc(0);
  private waiting: ((body: string) => void) | undefined;
  private constructor(
    private readonly sock: Socket,
    private readonly host: string,
  ) {
    sock.setNoDelay(true);
    sock.on('data', (d: Buffer) => {
      this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
      this.drain();
    });
  }
  static open(url: string): Promise<HttpConn> {
    const u = new URL(url);
    return new Promise((resolve, reject) => {
      const s = connect(Number(u.port), u.hostname, () => resolve(new HttpConn(s, u.host)));
      s.once('error', reject);
    });
  }
  post(body: string): Promise<string> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.sock.write(`POST / HTTP/1.1\r\nHost: ${this.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }
  private drain(): void {
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buf.subarray(0, end).toString('latin1');
    const m = /content-length:\s*(\d+)/i.exec(head);
    const len = m ? Number(m[1]) : 0;
    if (this.buf.length < end + 4 + len) return;
    const body = this.buf.subarray(end + 4, end + 4 + len).toString('utf8');
    this.buf = this.buf.subarray(end + 4 + len);
    const w = this.waiting;
    this.waiting = undefined;
    w?.(body);
  }
  close(): void {
    this.sock.destroy();
  }
}

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

async function main(): Promise<void> {
  const node = await startTestNode({ servers: false });
  const rpc = await startEthRpc(node);
  const provider = createEip1193Provider(node);
  try {
    const from = node.accounts[0]!.address.toLowerCase();
    const to = node.accounts[1]!.address.toLowerCase();
    const deployHash = (await provider.request({ method: 'eth_sendTransaction', params: [{ from, data: hex(erc20DeployData(10n ** 27n)) }] })) as string;
    let token: string | undefined;
    while (token === undefined) {
      const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [deployHash] })) as { contractAddress: string } | null;
      if (receipt) token = receipt.contractAddress;
      else await new Promise((r) => setTimeout(r, 20));
    }
    const input = hex(erc20TransferData(to, 1000n));
    const callObj = { from, to: token, input };
    const view = node.internals.app.evm;
    const height = view.latestHeight();
    console.log(`ERC20 transfer ${from} -> ${to} on ${token} at height ${height}; N=${N} warmup=${WARMUP}`);

    // ── raw: evm.runCall on a warm state manager ──
    const sm = await view.stateAt(height);
    const evm = await createEVM({ common: view.common, stateManager: sm, params: {} });
    const caller = new Address(Buffer.from(from.slice(2), 'hex'));
    const target = new Address(Buffer.from(token.slice(2), 'hex'));
    const data = erc20TransferData(to, 1000n);
    const rawReverted = await measure('raw runCall (revert)', async () => {
      await evm.journal.checkpoint();
      const r = await evm.runCall({ caller, origin: caller, to: target, data, gasLimit: 100_000n });
      await evm.journal.revert();
      if (r.execResult.exceptionError) throw new Error(`raw run failed: ${r.execResult.exceptionError.error}`);
    });
    const raw = await measure('raw runCall', async () => {
      const r = await evm.runCall({ caller, origin: caller, to: target, data, gasLimit: 100_000n });
      if (r.execResult.exceptionError) throw new Error(`raw run failed: ${r.execResult.exceptionError.error}`);
    });

    // ── in-process provider ──
    const estimate = (await provider.request({ method: 'eth_estimateGas', params: [callObj] })) as string;
    const inEstimate = await measure('in-process eth_estimateGas', () => provider.request({ method: 'eth_estimateGas', params: [callObj] }));
    const inCall = await measure('in-process eth_call', () => provider.request({ method: 'eth_call', params: [callObj, 'latest'] }));

    // ── HTTP ──
    const conn = await HttpConn.open(rpc.url);
    const estBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_estimateGas', params: [callObj] });
    const callBody = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_call', params: [callObj, 'latest'] });
    const check = JSON.parse(await conn.post(estBody)) as { result?: string; error?: unknown };
    if (check.result !== estimate) throw new Error(`HTTP estimate ${JSON.stringify(check)} differs from in-process ${estimate}`);
    const httpEstimate = await measure('http eth_estimateGas', () => conn.post(estBody));
    const httpCall = await measure('http eth_call', () => conn.post(callBody));
    conn.close();

    const summary = {
      bench: 'estimate',
      n: N,
      gasEstimate: Number(BigInt(estimate)),
      rawRunCallMs: raw,
      rawRunCallRevertedMs: rawReverted,
      inProcess: { estimateGasMs: inEstimate, callMs: inCall },
      http: { estimateGasMs: httpEstimate, callMs: httpCall },
      ratios: {
        inProcessEstimateOverRaw: Number((inEstimate.p50 / raw.p50).toFixed(2)),
        inProcessCallOverRaw: Number((inCall.p50 / raw.p50).toFixed(2)),
      },
      targets: { inProcessEstimateOverRawMax: 2.2, httpP50MaxMs: 0.5 },
    };
    console.log(JSON.stringify(summary));
  } finally {
    provider.close();
    await rpc.stop();
    await node.stop();
  }
}

await main();
