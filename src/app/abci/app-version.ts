/** The package version that Info reports (`app_version` stays the protocol number). */
import { VERSION } from '../../version.js';

export function packageVersion(): string {
  return VERSION;
}
