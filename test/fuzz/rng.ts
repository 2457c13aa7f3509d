/** A seeded PRNG (mulberry32) and the random values the fuzz builds requests from: same seed, same run. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  hex(bytes: number): string {
    let s = '';
    for (let i = 0; i < bytes; i++) s += this.int(256).toString(16).padStart(2, '0');
    return s;
  }
  string(max: number): string {
    const alphabet = 'abcXYZ019 _-./:?&=%#"\\\u00e9\u4e2d\u{1f600}\u0000\n{}[]';
    const chars = [...alphabet];
    let s = '';
    const n = this.int(max + 1);
    for (let i = 0; i < n; i++) s += this.pick(chars);
    return s;
  }
}

const KEYS = [
  'from',
  'to',
  'data',
  'input',
  'value',
  'gas',
  'gasPrice',
  'nonce',
  'address',
  'topics',
  'fromBlock',
  'toBlock',
  'blockHash',
  'encoding',
  'commitment',
  'filters',
  'limit',
  'before',
  'tracer',
  'chain_id',
  'denom',
  'height',
  'query',
  'page',
  '__proto__',
  'constructor',
];
const TAGS = ['latest', 'pending', 'earliest', 'safe', 'finalized', 'processed', 'confirmed'];

/** Raw JSON text of a random value (text, so it can hold what JSON.stringify cannot: 1e400, -0). */
export function randomJson(r: Rng, addresses: readonly string[], depth = 0): string {
  const k = r.int(depth > 3 ? 9 : 12);
  switch (k) {
    case 0:
      return 'null';
    case 1:
      return r.chance(0.5) ? 'true' : 'false';
    case 2:
      return r.pick(['0', '1', '-1', '7', '4294967296', '18446744073709551616', '1e400', '-0', '1.5', '9007199254740993', String(r.int(1000))]);
    case 3:
      return JSON.stringify('0x' + r.hex(r.pick([0, 1, 4, 8, 20, 32, 33, 65, 200])));
    case 4:
      return JSON.stringify(r.pick(addresses));
    case 5:
      return JSON.stringify(r.pick(TAGS));
    case 6:
      return JSON.stringify(r.string(40));
    case 7:
      return JSON.stringify('0x' + r.int(2 ** 20).toString(16));
    case 8:
      return JSON.stringify(r.pick(['0x', '0xzz', '', 'ZZZZ', '11111111111111111111111111111111', 'hub1qqqq', 'chainlet1xyz']));
    case 9:
    case 10: {
      const n = r.int(4);
      const items: string[] = [];
      for (let i = 0; i < n; i++) items.push(randomJson(r, addresses, depth + 1));
      return `[${items.join(',')}]`;
    }
    default: {
      const n = r.int(4);
      const items: string[] = [];
      for (let i = 0; i < n; i++) items.push(`${JSON.stringify(r.pick(KEYS))}:${randomJson(r, addresses, depth + 1)}`);
      return `{${items.join(',')}}`;
    }
  }
}

/** `[[[…null…]]]` nested `depth` deep. */
export const deepArray = (depth: number): string => '['.repeat(depth) + 'null' + ']'.repeat(depth);
