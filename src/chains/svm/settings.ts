/**
 * The SVM chain's settings on a home: the `[svm]` section of the home's own `config/app.toml` (the
 * network's, beside the EVM chain's sections; the SVM chain has no folder of its own), under the
 * spec's typed options, as `--svm.*` flags win over the file on the command line. The CLI's spec
 * already holds the file's keys (resolveConfig), so reading them again changes nothing there; a chain
 * started from code on a home runs on them too.
 */
import { homeFilesConfig } from '../chain-home.js';
import type { SvmChainSpec } from './start.js';

export function svmSpecOnHome(spec: SvmChainSpec): SvmChainSpec {
  if (spec.home === undefined) return spec;
  const file = homeFilesConfig(spec.home).svm ?? {};
  const given = Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined));
  return { ...file, ...given } as SvmChainSpec;
}
