/**
 * The routes table against the saved CometBFT v0.38 OpenAPI spec, both ways: every spec path is
 * a method with the same params, and every method is in the spec, except the deliberate
 * differences listed here (where the spec and routes.go disagree, routes.go wins).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMET_ROUTES, routesFor } from '../../src/rpc/comet/routes.js';

/** The saved spec: in the repo's spec/ folder, or in the shared workspace beside the repo. */
const SPEC = ['../../spec/', '../../../shared/spec/']
  .map((dir) => new URL(`${dir}cometbft-v0.38-rpc-openapi.yaml`, import.meta.url))
  .find((u) => existsSync(u));

/** Methods of routes.go the spec does not describe as paths. */
const NOT_IN_SPEC: Record<string, string> = {
  subscribe: 'WebSocket only; the spec describes it in prose',
  unsubscribe: 'WebSocket only; the spec describes it in prose',
  unsubscribe_all: 'WebSocket only; the spec describes it in prose',
  unsafe_flush_mempool: 'unsafe route added by AddUnsafeRoutes; missing from the spec',
};

/** Params where the spec disagrees with routes.go. */
const PARAM_DIFFERENCES: Record<string, { spec: string[]; routes: string[]; why: string }> = {
  dial_seeds: { spec: ['peers'], routes: ['seeds'], why: "routes.go names the arg 'seeds'; the spec copies dial_peers' name" },
};

/** `paths:` of the spec: path → query param names (a small line reader; the file is plain YAML). */
function specPaths(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let inPaths = false;
  let current: string | undefined;
  for (const line of readFileSync(SPEC!, 'utf8').split('\n')) {
    if (line.startsWith('paths:')) {
      inPaths = true;
      continue;
    }
    if (!inPaths) continue;
    if (/^\S/.test(line)) break;
    const path = /^ {2}\/([a-z_]+):/.exec(line);
    if (path) {
      current = path[1]!;
      out.set(current, []);
      continue;
    }
    const name = /^ {10}name: (\w+)\s*$/.exec(line) ?? /^ {8}- in: query\s*$/.exec(line);
    if (current && name && name[1]) out.get(current)!.push(name[1]);
  }
  return out;
}

describe.skipIf(SPEC === undefined)('routes table vs the OpenAPI spec (spec/cometbft-v0.38-rpc-openapi.yaml)', () => {
  const spec = SPEC ? specPaths() : new Map<string, string[]>();

  it('reads the spec', () => {
    expect(spec.size).toBeGreaterThan(25);
    expect(spec.get('blockchain')).toEqual(['minHeight', 'maxHeight']);
  });

  it('has every spec path as a method with the same params', () => {
    for (const [path, params] of spec) {
      const route = COMET_ROUTES.get(path);
      expect(route, `spec path /${path} missing from the routes table`).toBeDefined();
      const diff = PARAM_DIFFERENCES[path];
      const names = route!.params.map((p) => p.name);
      if (diff) {
        expect([...params].sort()).toEqual([...diff.spec].sort());
        expect(names).toEqual(diff.routes);
      } else {
        expect([...names].sort(), `params of ${path}`).toEqual([...params].sort());
      }
    }
  });

  it('has every method in the spec, except the documented ones', () => {
    const extra = [...COMET_ROUTES.keys()].filter((m) => !spec.has(m));
    expect(extra.sort()).toEqual(Object.keys(NOT_IN_SPEC).sort());
  });
});

describe('routes table flags', () => {
  it('marks the WebSocket-only and unsafe methods as routes.go does', () => {
    expect([...COMET_ROUTES.values()].filter((r) => r.wsOnly).map((r) => r.method)).toEqual(['subscribe', 'unsubscribe', 'unsubscribe_all']);
    expect([...COMET_ROUTES.values()].filter((r) => r.unsafe).map((r) => r.method)).toEqual(['dial_seeds', 'dial_peers', 'unsafe_flush_mempool']);
    expect(routesFor({ unsafe: false }).has('dial_seeds')).toBe(false);
    expect(routesFor({ unsafe: true }).has('dial_seeds')).toBe(true);
    expect(COMET_ROUTES.size).toBe(34);
    expect(Object.isFrozen(COMET_ROUTES.get('block'))).toBe(true);
  });
});

describe('docs/rpc-comet.md', () => {
  it('lists exactly the methods of the table, with their params and flags', () => {
    const doc = readFileSync(new URL('../../docs/rpc-comet.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| ([^|]+) \| ([^|]+) \| `([a-z]+)\.ts` \|$/gm)];
    expect(rows.map((m) => m[1])).toEqual([...COMET_ROUTES.keys()]);
    for (const [, method, params, flags, topic] of rows) {
      const r = COMET_ROUTES.get(method!)!;
      expect(params!.trim()).toBe(r.params.map((p) => `${p.name}: ${p.goType}`).join(', ') || '—');
      const want = [
        r.wsOnly ? 'WS only' : '',
        r.unsafe ? 'unsafe' : '',
        r.cacheable === 'always' ? 'cacheable' : r.cacheable === 'height' ? 'cacheable with height' : '',
      ]
        .filter(Boolean)
        .join(', ');
      expect(flags!.trim()).toBe(want || '—');
      expect(topic).toBe(r.topic);
    }
  });
});
