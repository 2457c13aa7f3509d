/**
 * Edits the bundle makes to dependency files as it inlines them (scripts/bundle.mjs), each with the
 * exact upstream text it replaces: if the text is not there (the package changed), the build stops
 * rather than ship the file unedited or edited wrongly. test/upstream-edits.test.ts checks that each
 * edit still applies to the installed packages and that the replacements mean the same.
 */

/** @type {{ name: string, file: RegExp, why: string, edits: [string, string][], mustNotContain?: string }[]} */
export const UPSTREAM_EDITS = [
  {
    name: 'lazy-bigint-cache',
    file: /@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    why:
      "@ethereumjs/util 10's bytes.js fills a cache of the BigInts 0…65535 when it loads: 65 536 BigInts made at every " +
      "import('chainlet') (13–18 ms here) that then live on the heap and slow every scavenge after. The bundle fills " +
      'that cache on use instead (same values: a BigInt is compared by value).',
    edits: [
      ['for (let i = 0; i <= 256 * 256 - 1; i++) {\n    BIGINT_CACHE[i] = BigInt(i);\n}\n', ''],
      ['return BIGINT_CACHE[bytes[0]];', 'return (BIGINT_CACHE[bytes[0]] ??= BigInt(bytes[0]));'],
      ['return BIGINT_CACHE[bytes[0] * 256 + bytes[1]];', 'return (BIGINT_CACHE[bytes[0] * 256 + bytes[1]] ??= BigInt(bytes[0] * 256 + bytes[1]));'],
    ],
    mustNotContain: 'BIGINT_CACHE[i]',
  },
  {
    name: 'evm-frame-object',
    file: /@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]evm\.js$/,
    why:
      "@ethereumjs/evm 10's _executeCall builds each call frame's message as { ...{ codeAddress }, ...message, gasLimit }. " +
      "In Node 20's V8 a second spread of an object with many properties takes a slow path: ≈ 25 µs for the message's " +
      '18 fields, against 0.6 µs for Object.assign of the same (a seventh of an eth_call). Object.assign gives the same ' +
      'object: the same keys in the same order with the same values (the target is a fresh object literal, so its ' +
      '[[Set]]s define data properties as the spread does).',
    edits: [
      [
        'result = await this.runInterpreter({\n                ...{ codeAddress: message.codeAddress },\n                ...message,\n                gasLimit,\n            }, ',
        'result = await this.runInterpreter(Object.assign({ codeAddress: message.codeAddress }, message, { gasLimit }), ',
      ],
    ],
  },
  {
    name: 'lazy-ws',
    file: /@solana[\\/]rpc-subscriptions-channel-websocket[\\/]dist[\\/]index\.node\.mjs$/,
    why:
      "@solana/kit's WebSocket channel imports the ws package when it loads (Node 20 has no global WebSocket), and " +
      "litesvm's JavaScript loads @solana/kit whole: every start of an SVM chain paid ≈ 16 ms for ws and the node:http, " +
      'https, tls and zlib modules it loads, for a channel the SVM chain never opens (LiteSVM is in process; our own ' +
      'WebSocket servers load ws at their first upgrade). The bundle requires ws when a channel is made; the readyState ' +
      'constants the channel compares with are the WebSocket standard values, which ws exports as the same numbers.',
    edits: [
      ["import e2 from 'ws';\n", ''],
      [
        'var l = globalThis.WebSocket ? globalThis.WebSocket : e2;',
        'var l = globalThis.WebSocket ? globalThis.WebSocket : { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 };',
      ],
      ['const webSocket = new l(url);', 'const webSocket = new (globalThis.WebSocket ?? require("ws"))(url);'],
    ],
    mustNotContain: "from 'ws'",
  },
];

/** `source` with the edits of `edit` applied; throws when one no longer matches upstream. */
export function applyUpstreamEdit(edit, source, path) {
  let out = source;
  for (const [from, to] of edit.edits) {
    if (!out.includes(from)) throw new Error(`bundle: ${path} changed upstream; review the ${edit.name} edit (${JSON.stringify(from.slice(0, 40))}…)`);
    out = out.replace(from, to);
  }
  if (edit.mustNotContain && out.includes(edit.mustNotContain))
    throw new Error(`bundle: ${path} still contains ${edit.mustNotContain} after the ${edit.name} edit`);
  return out;
}
