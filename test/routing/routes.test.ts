import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findRoute, ROUTES } from '../../src/rpc/routing/routes.js';

/** Paths and methods of the saved Skip Go API v2 swagger (see the fixture's `source`). */
const spec = JSON.parse(readFileSync(new URL('./fixtures/skip-go-v2-operations.json', import.meta.url), 'utf8')) as {
  operations: { method: string; path: string }[];
};

/** Swagger operations this single-chain node does not serve (routing, swaps, bridges, asset registry). */
// Every operation of the saved swagger is served now.
const NOT_SERVED: string[] = [];

const specOps = spec.operations.map((o) => `${o.method} ${o.path}`);
const apiOps = ROUTES.filter((r) => r.api).map((r) => `${r.method} ${r.path}`);

describe('routes table vs the saved swagger', () => {
  it('every API route of the table is a swagger operation with the same method', () => {
    for (const op of apiOps) expect(specOps).toContain(op);
  });

  it('every swagger operation is served or explicitly not served', () => {
    expect([...apiOps, ...NOT_SERVED].sort()).toEqual([...specOps].sort());
  });

  it('the table is frozen and has one entry per method + path', () => {
    expect(Object.isFrozen(ROUTES)).toBe(true);
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('matches paths, a path parameter, a trailing slash and HEAD; reports allowed methods', () => {
    expect(findRoute('GET', '/v2/info/chains/').match?.route.path).toBe('/v2/info/chains');
    expect(findRoute('HEAD', '/v2/info/chains').match?.route.method).toBe('GET');
    expect(findRoute('GET', '/explorer/tx/0xAB').match?.pathParams).toEqual({ hash: '0xAB' });
    expect(findRoute('GET', '/explorer/tx/a/b').match).toBeUndefined();
    expect(findRoute('GET', '/v2/tx/submit')).toEqual({ allowed: ['POST'] });
    expect(findRoute('GET', '/v2/nope')).toEqual({ allowed: [] });
  });
});
