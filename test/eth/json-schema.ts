/**
 * A small JSON Schema checker for the keywords the execution-apis OpenRPC document uses on results
 * (type, pattern, properties, required, additionalProperties, items, oneOf, anyOf, allOf, enum,
 * const, minimum, maximum). Returns the list of violations with their JSON paths.
 */
import { existsSync, readFileSync } from 'node:fs';

export type Schema = Record<string, unknown>;

/** The repo's spec/ copy, else the shared folder beside the repo. */
export const SPEC_PATH: URL | undefined = ['../../spec/', '../../../shared/spec/']
  .map((dir) => new URL(`${dir}ethereum-execution-apis-openrpc.json`, import.meta.url))
  .find((u) => existsSync(u));

let spec: { methods: { name: string; result: { schema: Schema } }[] } | undefined;

/** The result schema of `method` from the saved OpenRPC document. */
export function resultSchema(method: string): Schema {
  spec ??= JSON.parse(readFileSync(SPEC_PATH!, 'utf8')) as typeof spec;
  const m = spec!.methods.find((x) => x.name === method);
  if (!m) throw new Error(`no ${method} in the spec`);
  return m.result.schema;
}

export function specMethods(): string[] {
  spec ??= JSON.parse(readFileSync(SPEC_PATH!, 'utf8')) as typeof spec;
  return spec!.methods.map((m) => m.name);
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(v: unknown, t: string): boolean {
  const actual = typeOf(v);
  return actual === t || (t === 'number' && actual === 'integer');
}

export function validate(schema: Schema, value: unknown, path = '$'): string[] {
  const errors: string[] = [];
  const s = schema;
  if (s['type'] !== undefined) {
    const types = Array.isArray(s['type']) ? (s['type'] as string[]) : [s['type'] as string];
    if (!types.some((t) => typeMatches(value, t))) return [`${path}: expected ${types.join('|')}, got ${typeOf(value)}`];
  }
  if (s['const'] !== undefined && value !== s['const']) errors.push(`${path}: expected const ${JSON.stringify(s['const'])}`);
  if (Array.isArray(s['enum']) && !(s['enum'] as unknown[]).includes(value)) errors.push(`${path}: not in enum`);
  if (typeof value === 'string' && typeof s['pattern'] === 'string' && !new RegExp(s['pattern']).test(value)) {
    errors.push(`${path}: ${JSON.stringify(value)} does not match ${s['pattern']}`);
  }
  if (typeof value === 'number') {
    if (typeof s['minimum'] === 'number' && value < s['minimum']) errors.push(`${path}: below minimum`);
    if (typeof s['maximum'] === 'number' && value > s['maximum']) errors.push(`${path}: above maximum`);
  }
  if (typeOf(value) === 'object') {
    const o = value as Record<string, unknown>;
    const props = (s['properties'] ?? {}) as Record<string, Schema>;
    for (const r of (s['required'] ?? []) as string[]) if (!(r in o)) errors.push(`${path}: missing ${r}`);
    for (const [k, v] of Object.entries(o)) {
      if (props[k]) errors.push(...validate(props[k]!, v, `${path}.${k}`));
      else if (s['additionalProperties'] === false) errors.push(`${path}: unexpected property ${k}`);
      else if (typeof s['additionalProperties'] === 'object') errors.push(...validate(s['additionalProperties'] as Schema, v, `${path}.${k}`));
    }
  }
  if (Array.isArray(value) && typeof s['items'] === 'object') {
    value.forEach((item, i) => errors.push(...validate(s['items'] as Schema, item, `${path}[${i}]`)));
  }
  if (Array.isArray(s['allOf'])) for (const sub of s['allOf'] as Schema[]) errors.push(...validate(sub, value, path));
  if (Array.isArray(s['anyOf'])) {
    const results = (s['anyOf'] as Schema[]).map((sub) => validate(sub, value, path));
    if (!results.some((r) => r.length === 0)) errors.push(`${path}: matches no anyOf branch (${results.map((r) => r[0]).join(' / ')})`);
  }
  if (Array.isArray(s['oneOf'])) {
    const results = (s['oneOf'] as Schema[]).map((sub) => validate(sub, value, path));
    const ok = results.filter((r) => r.length === 0).length;
    if (ok !== 1) errors.push(`${path}: matches ${ok} oneOf branches (${results.map((r) => r[0] ?? 'ok').join(' / ')})`);
  }
  return errors;
}
