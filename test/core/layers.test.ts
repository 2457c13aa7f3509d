/**
 * One direction of dependency: cli → node / network (composition root) → RPC servers → consensus /
 * mempool → the ABCI apps → stores → events, codec, types, genesis → crypto, config. A source file may import
 * its own layer or a lower one, never an upper one (tests may reach anything). The imports are read
 * with the TypeScript compiler, so `import type`, re-exports and `import()` all count.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Layer rank of each top-level part of src/ (higher = further up). */
const RANK: Record<string, number> = {
  // The bundle's root (scripts/bundle.mjs): the public API and the command line.
  'package-core.ts': 9,
  cli: 8,
  'index.ts': 7,
  node: 7,
  network: 7,
  rpc: 6,
  'abci-server': 6,
  consensus: 5,
  mempool: 5,
  app: 4,
  apps: 4,
  ibc: 4,
  svm: 4,
  store: 3,
  abci: 2,
  events: 2,
  codec: 2,
  types: 2,
  genesis: 2,
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
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) out.push(n.moduleSpecifier.text);
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) out.push(n.arguments[0].text);
    if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) out.push(n.argument.literal.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out.filter((s) => s.startsWith('.'));
}

const partOf = (file: string): string => relative(SRC, file).split(sep)[0]!.replace(/\.js$/, '.ts');

describe('layers', () => {
  it('every part of src/ has a rank', () => {
    for (const f of sourceFiles(SRC)) expect(RANK[partOf(f)], relative(SRC, f)).toBeDefined();
  });

  it('no source file imports an upper layer', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const from = partOf(file);
      for (const spec of specifiers(file)) {
        const target = normalize(join(dirname(file), spec));
        if (!target.startsWith(SRC)) continue;
        const to = partOf(target);
        if ((RANK[to] ?? 0) > RANK[from]!) violations.push(`${relative(SRC, file)} imports ${relative(SRC, target)} (${from} → ${to})`);
      }
    }
    expect(violations).toEqual([]);
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
});
