/**
 * The effective config of a node: defaults, then the home's config files, then overrides (flags or
 * `startNode` options). One function, so `chainlet config show` prints exactly what a start uses.
 */
import { defaultConfig, homeProfile, mergeConfig } from './defaults.js';
import { readConfigFiles } from './files.js';
import type { DeepPartial, NodeConfig } from './types.js';

export function resolveConfig(home: string | undefined, overrides?: DeepPartial<NodeConfig>): NodeConfig {
  let cfg = defaultConfig();
  if (home) {
    // Devnet control (evm_*, anvil_*, hardhat_*) is on in the in-memory devnet profile only; a home turns it on in app.toml.
    cfg = homeProfile(cfg);
    for (const o of readConfigFiles(home)) cfg = mergeConfig(cfg, o);
    cfg = { ...cfg, home };
    if (!overrides?.dbBackend) cfg.dbBackend = 'classic';
  }
  return mergeConfig(cfg, overrides);
}
