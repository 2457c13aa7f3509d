/** The package version and the CometBFT version we emulate. */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export const VERSION: string = pkg.version;
/** `node_info.version`: cosmjs picks its v0.38 client when this starts with "0.38.". */
export const COMET_VERSION = '0.38.25';
export const P2P_PROTOCOL = 8;
export const BLOCK_PROTOCOL = 11;
