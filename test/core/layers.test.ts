/**
 * One direction of dependency, no folder cycles, no module-level per-node state (docs/architecture.md,
 * "Dependency direction"). Each part of src/ (a top-level folder or file, or a subfolder given its
 * own rank) has a rank; a source file may import its own part or a part of lower rank, never a
 * higher one (tests may reach anything). Parts of equal rank may import each other, so the graph of
 * parts is also checked for cycles: every cycle fails, named with one import per step. The imports
 * are read with the TypeScript compiler, so `import type`, re-exports and `import()` all count.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * Layer rank of each part of src/ (higher = further up). Where two folders once reached each
 * other, each has its own rank: sdk < ibc < app < apps; types < abci < events < codec/json <
 * genesis (codec itself is the wire level below types).
 */
const RANK: Record<string, number> = {
  // The bundle's root (scripts/bundle.mjs): the public API and the command line.
  'package-core.ts': 19,
  cli: 18,
  'index.ts': 17,
  // The composition root (startNetwork) over the chain kinds (src/chains/<kind>: a kind's start,
  // routing adapter, IBC endpoint), which use the relayer's types and the nodes below.
  network: 17,
  chains: 16,
  'network/ibc': 15,
  node: 15,
  // Devnet control: over the consensus engine's and the EVM app's admin interfaces; the node builds it.
  devnet: 15,
  rpc: 14,
  'abci-server': 14,
  consensus: 13,
  mempool: 13,
  apps: 12,
  svm: 12,
  app: 11,
  ibc: 10,
  sdk: 9,
  store: 8,
  genesis: 7,
  'codec/json': 6,
  events: 5,
  abci: 4,
  types: 3,
  codec: 2,
  crypto: 1,
  config: 1,
  util: 1,
  'version.ts': 1,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** Every relative module specifier of a file: imports, re-exports, `import()` and `import type`. */
function specifiers(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier))
      out.push(n.moduleSpecifier.text);
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0]))
      out.push(n.arguments[0].text);
    if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) out.push(n.argument.literal.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out.filter((s) => s.startsWith('.'));
}

/** One import between two files of a source tree, as paths relative to its root (`/` separated). */
interface Import {
  from: string;
  to: string;
}

/** Every import inside the tree under `root` (source files only, fixtures left out). */
function importsOf(root: string): Import[] {
  const inside = root.endsWith(sep) ? root : root + sep;
  const rel = (p: string) => relative(root, p).split(sep).join('/').replace(/\.js$/, '.ts');
  return sourceFiles(root).flatMap((file) =>
    specifiers(file)
      .map((spec) => normalize(join(dirname(file), spec)))
      .filter((target) => target.startsWith(inside))
      .map((target) => ({ from: rel(file), to: rel(target) })),
  );
}

/** The part a file belongs to: the longest ranked folder holding it, else its top-level entry. */
function partOf(file: string, ranks: Record<string, number>): string {
  const segs = file.split('/');
  for (let n = segs.length - 1; n > 1; n--) {
    const folder = segs.slice(0, n).join('/');
    if (ranks[folder] !== undefined) return folder;
  }
  return segs[0]!;
}

/** Imports from a part to a part of higher rank. */
function upwardImports(imports: readonly Import[], ranks: Record<string, number>): string[] {
  const out: string[] = [];
  for (const { from, to } of imports) {
    const a = partOf(from, ranks);
    const b = partOf(to, ranks);
    if ((ranks[b] ?? 0) > ranks[a]!) out.push(`${from} imports ${to} (${a} → ${b})`);
  }
  return out;
}

/**
 * Every cycle of the part graph, one per strongly connected component of two or more parts
 * (Tarjan), each as a closed walk with one import that makes each step.
 */
function partCycles(imports: readonly Import[], ranks: Record<string, number>): string[] {
  // part → part → one import that makes the edge
  const edges = new Map<string, Map<string, Import>>();
  for (const imp of imports) {
    const a = partOf(imp.from, ranks);
    const b = partOf(imp.to, ranks);
    if (!edges.has(a)) edges.set(a, new Map());
    if (!edges.has(b)) edges.set(b, new Map());
    if (a !== b && !edges.get(a)!.has(b)) edges.get(a)!.set(b, imp);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!.keys()) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const c: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      c.push(w);
    } while (w !== v);
    if (c.length > 1) components.push(c.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) connect(v);

  return components.map((c) => {
    // The shortest walk from the component's first part back to it (breadth first, inside c).
    const start = c[0]!;
    const prev = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift()!;
      const next = [...edges.get(v)!.keys()].filter((w) => c.includes(w)).sort();
      if (next.includes(start)) {
        const walk = [v];
        while (walk[0] !== start) walk.unshift(prev.get(walk[0]!)!);
        walk.push(start);
        const steps = walk.slice(1).map((to, i) => {
          const imp = edges.get(walk[i]!)!.get(to)!;
          return `${imp.from} imports ${imp.to}`;
        });
        return `cycle {${c.join(', ')}}: ${walk.join(' → ')} (${steps.join('; ')})`;
      }
      for (const w of next) {
        if (prev.has(w) || w === start) continue;
        prev.set(w, v);
        queue.push(w);
      }
    }
    return `cycle {${c.join(', ')}}`; // unreachable: a component of two or more parts has a cycle through each part
  });
}

/**
 * Module-level state in the composition root and the RPC servers: every top-level `let`/`var`, and
 * every top-level `const` holding an empty Map, WeakMap, Set or WeakSet to be filled. Per-node state
 * belongs to the node (its internals, its env); what is left is listed below with why it is not.
 */
const STATE_FOLDERS = ['node', 'network', 'chains', 'rpc'];
const MODULE_STATE_KEPT: Record<string, string> = {
  'chains/abci-chain.ts chains': 'process-wide numbering of chains (logger names)',
  'node/metrics.ts subscribers': 'process-wide unique event-bus subscriber names',
  'node/node.ts nodeCounter': 'process-wide numbering of nodes (logger and subscriber names)',
  'rpc/comet/envelope.ts encodedEvents': 'encode-once cache of an immutable event message',
  'rpc/comet/http-handler.ts httpCallSeq': 'process-wide sequence making caller ids unique',
  'rpc/comet/net.ts chunkCache': 'genesis chunks, a pure function of the genesis object they are keyed by',
  'rpc/jsonrpc/errors.ts resolved': "a family's error texts merged with the spec's, a pure function of the texts object they are keyed by",
  'rpc/eth/namespaces/profiling/full-gc.ts cached': "the process's own gc() handle",
  'rpc/eth/provider.ts sessionIds': 'process-wide unique in-process session ids',
  'rpc/eth/pubsub.ts headerJson': 'encode-once cache of an immutable block',
  'rpc/eth/pubsub.ts logJson': 'encode-once cache of an immutable log',
  'rpc/eth/pubsub.ts pendingJson': 'encode-once cache of a pending tx, keyed by its hash bytes',
  'rpc/routing/explorer-app.ts cache': 'the installed explorer assets, read once',
  'rpc/solana/cluster.ts fallbackIdentity': 'a constant derived from a fixed seed',
  'rpc/transport/backend.ts cached': 'the uWebSockets.js module, loaded once per process',
  'rpc/transport/pipeline.ts statusLines': 'HTTP status lines, a pure function of the code',
  'rpc/transport/pipeline.ts validHeaders': 'frozen response header objects found valid (a pure check of an immutable object)',
};

/** `file name` of each top-level variable of a file that may hold state (see MODULE_STATE_KEPT). */
function moduleState(file: string, rel: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const mutable = (st.declarationList.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) !== ts.NodeFlags.Const;
    for (const d of st.declarationList.declarations) {
      const init = d.initializer;
      const emptyCollection =
        init !== undefined &&
        ts.isNewExpression(init) &&
        ts.isIdentifier(init.expression) &&
        ['Map', 'WeakMap', 'Set', 'WeakSet'].includes(init.expression.text) &&
        (init.arguments?.length ?? 0) === 0;
      if ((mutable || emptyCollection) && ts.isIdentifier(d.name)) out.push(`${rel} ${d.name.text}`);
    }
  }
  return out;
}

describe('layers', () => {
  const imports = importsOf(SRC);

  it('every part of src/ has a rank', () => {
    for (const f of sourceFiles(SRC)) {
      const file = relative(SRC, f).split(sep).join('/');
      expect(RANK[partOf(file, RANK)], file).toBeDefined();
    }
  });

  it('no source file imports an upper layer', () => {
    expect(upwardImports(imports, RANK)).toEqual([]);
  });

  it('the folders of src/ import each other without a cycle', () => {
    expect(partCycles(imports, RANK)).toEqual([]);
  });

  it('devnet control reaches consensus and the EVM app only through their admin interfaces; the chain core not at all', () => {
    // What src/devnet may import below itself: the two admin interfaces, the errors it maps, the
    // impersonation rule, the app meta's type, the IBC app hash, the db snapshot, plain types and helpers.
    const allowed = (to: string) =>
      to.startsWith('devnet/') ||
      [
        'consensus/admin.ts',
        'consensus/errors.ts',
        'app/abci/app-admin.ts',
        'app/stores/app-store.ts',
        'app/execution/impersonation.ts',
        'store/btree-level.ts',
        'store/chain-state.ts',
        'store/segments/segment-registry.ts',
      ].includes(to) ||
      /^(types|crypto|util|ibc|mempool|rpc\/eth\/namespaces)\//.test(to);
    expect(imports.some((i) => i.from.startsWith('devnet/'))).toBe(true);
    const devnet = imports.filter((i) => i.from.startsWith('devnet/') && !allowed(i.to));
    expect(devnet.map((i) => `${i.from} imports ${i.to}`)).toEqual([]);
    expect(imports.filter((i) => i.from === 'node/chain-core.ts' && i.to.includes('devnet/')).map((i) => i.to)).toEqual([]);
  });

  it('one EVM module: only app/evm/factory.ts builds a VM or an EVM', () => {
    const builders = sourceFiles(SRC)
      .filter((f) => /import\s*\{[^}]*\bcreate(?:VM|EVM)\b[^}]*\}\s*from\s*'@ethereumjs\/(?:vm|evm)'/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f).split(sep).join('/'));
    expect(builders).toEqual(['app/evm/factory.ts']);
  });

  it('the Ethereum RPC reaches calls, filters and subscriptions through interfaces: only the composition root builds them', () => {
    const classes = ['app/evm/call-executor.ts', 'rpc/eth/call-service.ts', 'rpc/eth/filter-registry.ts', 'rpc/eth/subscriptions.ts'];
    const users = imports.filter((i) => classes.includes(i.to));
    expect(users.filter((i) => !i.from.startsWith('node/')).map((i) => `${i.from} imports ${i.to}`)).toEqual([]);
    expect(new Set(users.map((i) => i.to))).toEqual(new Set(classes)); // the rule is not vacuous
  });

  it('the composition root and the RPC servers keep no per-node state at module level', () => {
    const found = STATE_FOLDERS.flatMap((dir) => sourceFiles(join(SRC, dir)).flatMap((f) => moduleState(f, relative(SRC, f).split(sep).join('/'))));
    expect(found.filter((k) => MODULE_STATE_KEPT[k] === undefined)).toEqual([]);
    // A kept entry that no longer exists is dropped from the list.
    expect(Object.keys(MODULE_STATE_KEPT).filter((k) => !found.includes(k))).toEqual([]);
  });

  it('finds module-level state (the rule is not vacuous)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlet-layers-'));
    try {
      const f = join(dir, 'x.ts');
      writeFileSync(
        f,
        [
          'let a = 0;',
          'const b = new WeakMap<object, number>();',
          "const c = new Set(['x']);",
          'const d = 1;',
          'function f() { let e = new Map(); return e; }',
        ].join('\n'),
      );
      expect(moduleState(f, 'x.ts')).toEqual(['x.ts a', 'x.ts b']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads every import form (the rule is not vacuous)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlet-layers-'));
    try {
      const f = join(dir, 'x.ts');
      writeFileSync(
        f,
        [
          "import type { ChainletNode } from '../node/node.js';",
          "import { a } from './a.js';",
          "export { b } from '../b.js';",
          "const m = await import('../dyn.js');",
          "let t: import('../typed.js').T;",
          "import x from 'external';",
        ].join('\n'),
      );
      expect(specifiers(f).sort()).toEqual(['../b.js', '../dyn.js', '../node/node.js', '../typed.js', './a.js']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails on a folder cycle injected into a source tree, naming it with its imports', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlet-layers-'));
    const put = (file: string, text: string) => {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    };
    try {
      // low ← mid ⇄ top/sub: mid and top/sub share a rank, so only the cycle check sees them.
      put('low/base.ts', 'export const base = 1;\n');
      put('mid/m.ts', "import { base } from '../low/base.js';\nimport type { S } from '../top/sub/s.js';\nexport const m: S = base;\n");
      put('top/sub/s.ts', "export type S = number;\nexport const s = async () => (await import('../../mid/m.js')).m;\n");
      put('top/t.ts', "import { s } from './sub/s.js';\nexport const t = s;\n");
      const ranks = { low: 1, mid: 2, 'top/sub': 2, top: 3 };
      const found = importsOf(dir);
      expect(upwardImports(found, ranks)).toEqual([]);
      expect(partCycles(found, ranks)).toEqual(['cycle {mid, top/sub}: mid → top/sub → mid (mid/m.ts imports top/sub/s.ts; top/sub/s.ts imports mid/m.ts)']);
      // Ranked apart, the same import is upward; without it, no cycle is left.
      expect(upwardImports(found, { ...ranks, 'top/sub': 3 })).toEqual(['mid/m.ts imports top/sub/s.ts (mid → top/sub)']);
      put('mid/m.ts', "import { base } from '../low/base.js';\nexport const m = base;\n");
      expect(partCycles(importsOf(dir), ranks)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names a cycle of three parts with one import per step', () => {
    const imports: Import[] = [
      { from: 'a/x.ts', to: 'b/y.ts' },
      { from: 'b/y.ts', to: 'c/z.ts' },
      { from: 'b/w.ts', to: 'c/z.ts' },
      { from: 'c/z.ts', to: 'a/x.ts' },
      { from: 'd/d.ts', to: 'a/x.ts' },
    ];
    expect(partCycles(imports, { a: 1, b: 1, c: 1, d: 2 })).toEqual([
      'cycle {a, b, c}: a → b → c → a (a/x.ts imports b/y.ts; b/y.ts imports c/z.ts; c/z.ts imports a/x.ts)',
    ]);
  });
});
