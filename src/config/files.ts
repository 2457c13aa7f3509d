/**
 * Reads and writes `config/config.toml` and `config/app.toml` through the key table, and overlays
 * `--section.key` flags. Precedence (lowest first): defaults → files → flags → programmatic options.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { CONFIG_KEYS, ConfigValueError, describeAccepted, formatDuration, keyName, parseKeyValue, type ConfigKey } from './keys.js';
import type { DeepPartial, NodeConfig } from './types.js';

function setPath(target: Record<string, unknown>, key: ConfigKey, value: unknown): void {
  const [a, b] = key.path;
  if (b === undefined) {
    target[a] = value;
  } else {
    const sec = (target[a] ??= {}) as Record<string, unknown>;
    sec[b] = value;
  }
}

function getPath(cfg: NodeConfig, key: ConfigKey): unknown {
  const [a, b] = key.path;
  const v = cfg[a] as unknown;
  return b === undefined ? v : (v as Record<string, unknown>)[b];
}

/** Overrides from parsed TOML documents (unknown keys are ignored, as CometBFT's viper does). */
export function overridesFromToml(file: ConfigKey['file'], doc: Record<string, unknown>): DeepPartial<NodeConfig> {
  const out: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    if (key.file !== file) continue;
    const sec = key.section === '' ? doc : (doc[key.section] as Record<string, unknown> | undefined);
    if (!sec || !(key.name in sec)) continue;
    setPath(out, key, parseKeyValue(key, sec[key.name]));
  }
  // Cosmos EVM's older name for the gas cap.
  const jr = doc['json-rpc'] as Record<string, unknown> | undefined;
  if (file === 'app' && jr && 'rpc-gas-cap' in jr && !('gas-cap' in jr)) {
    const key = CONFIG_KEYS.find((x) => x.name === 'gas-cap')!;
    setPath(out, key, parseKeyValue(key, jr['rpc-gas-cap']));
  }
  return out as DeepPartial<NodeConfig>;
}

/** Reads both files from `<home>/config/` when present. */
export function readConfigFiles(home: string): DeepPartial<NodeConfig>[] {
  const out: DeepPartial<NodeConfig>[] = [];
  for (const file of ['config', 'app'] as const) {
    const path = join(home, 'config', `${file}.toml`);
    if (!existsSync(path)) continue;
    let doc: Record<string, unknown>;
    try {
      doc = parseToml(readFileSync(path, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new Error(`cannot parse ${path}: ${(err as Error).message}`);
    }
    out.push(overridesFromToml(file, doc));
  }
  return out;
}

/** The key a `--section.key` flag sets (`json-rpc.rpc-gas-cap` is Cosmos EVM's older name of the gas cap). */
export function keyForFlag(name: string): ConfigKey | undefined {
  if (name === 'json-rpc.rpc-gas-cap') name = 'json-rpc.gas-cap';
  return CONFIG_KEYS.find((k) => keyName(k) === name);
}

/**
 * Overrides from CLI flags given as `{ 'rpc.laddr': 'tcp://…', 'json-rpc.api': 'eth,debug' }`.
 * A flag alone (`true`) switches a boolean key on. Errors name the flag and what it accepts.
 */
export function overridesFromFlags(flags: Record<string, string | boolean>): DeepPartial<NodeConfig> {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(flags)) {
    const key = keyForFlag(name);
    if (!key) throw new Error(`unknown config flag --${name}`);
    if (raw === true && key.kind !== 'bool') throw new Error(`--${name} needs a value: ${describeAccepted(key)}`);
    try {
      setPath(out, key, parseKeyValue(key, raw));
    } catch (err) {
      if (!(err instanceof ConfigValueError)) throw err;
      throw new Error(`invalid value ${JSON.stringify(raw)} for --${name}: expected ${describeAccepted(key)}`);
    }
  }
  return out as DeepPartial<NodeConfig>;
}

/**
 * Renders one of the two files with every key and its current value, sections in table order;
 * `part` renders only its root keys or only its sections (`config show` prints both files' root
 * keys first, so that the whole output still reads as one TOML document).
 */
export function renderToml(file: ConfigKey['file'], cfg: NodeConfig, part: 'all' | 'root' | 'sections' = 'all'): string {
  const doc: Record<string, Record<string, unknown>> = { '': {} };
  for (const key of CONFIG_KEYS) {
    if (key.file !== file) continue;
    let v = getPath(cfg, key);
    if (key.kind === 'duration') v = formatDuration(v as number);
    if (key.kind === 'bigint') v = Number(v as bigint) <= Number.MAX_SAFE_INTEGER ? Number(v as bigint) : String(v);
    (doc[key.section] ??= {})[key.name] = v;
  }
  const { '': top, ...sections } = doc;
  const header = file === 'config' ? '# Chainlet node configuration (CometBFT v0.38 layout)\n' : '# Chainlet application configuration (Cosmos EVM layout)\n';
  if (part === 'root') return stringifyToml(top ?? {}) + '\n';
  if (part === 'sections') return stringifyToml(sections) + '\n';
  return header + stringifyToml({ ...top, ...sections }) + '\n';
}
