/** One raw HTTP/1.1 request whose size the test controls to the byte (fetch adds headers of its own). */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  body: string;
}

/**
 * Sends `method target` with a JSON `body` and pads an `x-pad` header so the head (the request
 * line and the header lines with their CRLFs, as the transport counts it) is exactly `headBytes`.
 */
export function rawRequest(url: string, o: { method?: string; target?: string; headBytes: number; body?: string }): Promise<RawAnswer> {
  const { host, hostname, port } = new URL(url);
  const body = o.body ?? '';
  const line = `${o.method ?? 'POST'} ${o.target ?? '/'} HTTP/1.1\r\n`;
  const fixed = [`host: ${host}`, 'content-type: application/json', `content-length: ${Buffer.byteLength(body)}`, 'connection: close'];
  const used = line.length + fixed.reduce((n, h) => n + h.length + 2, 0) + 'x-pad: '.length + 2;
  if (o.headBytes < used) throw new RangeError(`a head of ${o.headBytes} bytes cannot hold this request (${used} at least)`);
  const head = `${line}${fixed.map((h) => `${h}\r\n`).join('')}x-pad: ${'a'.repeat(o.headBytes - used)}\r\n`;
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('error', reject);
    s.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    s.end(`${head}\r\n${body}`);
  });
}
