/** The fuzz's HTTP and raw-socket clients: every request ends with an answer or a named failure, never a hang. */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Outcome = ({ ok: true } & Answer) | { ok: false; error: string };

/**
 * Keep-alive sockets, reused most-recent first and dropped after 4 s idle: uWebSockets closes an
 * idle connection after 10 s, and a request sent on a socket the server is closing meets a reset
 * (the keep-alive race every HTTP/1.1 client has), which says nothing about the server.
 */
export function makeAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 16, scheduling: 'lifo', timeout: 4000 });
}

export interface HttpReq {
  port: number;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * One request; a reset on a reused keep-alive socket (the server closed it idle as the request
 * went out: the race Node's docs describe for `request.reusedSocket`) is sent again once.
 */
export async function httpRequest(agent: Agent, req: HttpReq, timeoutMs: number): Promise<Outcome> {
  const first = await httpRequestOnce(agent, req, timeoutMs);
  return first.ok || !first.reusedSocketReset ? first : httpRequestOnce(agent, req, timeoutMs);
}

function httpRequestOnce(agent: Agent, req: HttpReq, timeoutMs: number): Promise<Outcome & { reusedSocketReset?: boolean }> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (o: Outcome & { reusedSocketReset?: boolean }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(o);
    };
    const r = request({ host: '127.0.0.1', port: req.port, method: req.method, path: req.path, headers: req.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => finish({ ok: true, status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (e) => finish({ ok: false, error: `response: ${e.message}` }));
    });
    const timer = setTimeout(() => {
      r.destroy();
      finish({ ok: false, error: `no answer in ${timeoutMs} ms` });
    }, timeoutMs);
    r.on('error', (e) => {
      const code = (e as NodeJS.ErrnoException).code;
      finish({ ok: false, error: `request: ${code ?? e.message}`, ...(r.reusedSocket && code === 'ECONNRESET' ? { reusedSocketReset: true } : {}) });
    });
    if (req.body !== undefined) r.end(req.body);
    else r.end();
  });
}

/**
 * Bytes written to a fresh socket as they are (requests no HTTP client library sends: a HEAD with
 * a body length, a 20 KB header, a 100 KB URL, garbage). Answers with the parsed status line and
 * body once the server closes or the declared body has arrived.
 */
export function rawRequest(port: number, bytes: string | Buffer, timeoutMs: number, head = false): Promise<Outcome> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const parse = (): Answer | undefined => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      const lines = all.subarray(0, end).toString('latin1').split('\r\n');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
      if (!m) return { status: -1, headers: {}, body: all.toString('latin1').slice(0, 200) };
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const body = all.subarray(end + 4);
      if (head) return { status: Number(m[1]), headers, body: '' };
      const len = headers['content-length'] !== undefined ? Number(headers['content-length']) : undefined;
      if (len !== undefined && body.length < len) return undefined;
      return { status: Number(m[1]), headers, body: body.toString('utf8') };
    };
    const finish = (o: Outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      s.destroy();
      resolve(o);
    };
    const timer = setTimeout(() => {
      const a = parse();
      finish(a ? { ok: true, ...a } : { ok: false, error: `no answer in ${timeoutMs} ms` });
    }, timeoutMs);
    s.on('data', (c: Buffer) => {
      chunks.push(c);
      const a = parse();
      if (a && (head || a.headers['content-length'] !== undefined || a.status === -1)) finish({ ok: true, ...a });
    });
    s.on('end', () => {
      const a = parse();
      finish(a ? { ok: true, ...a } : { ok: false, error: chunks.length ? 'unparseable answer' : 'closed without an answer' });
    });
    s.on('error', (e) => {
      const a = parse();
      finish(a ? { ok: true, ...a } : { ok: false, error: `socket: ${(e as NodeJS.ErrnoException).code ?? e.message}` });
    });
    s.write(bytes);
  });
}
