/**
 * Base classes of the errors the devnet-control and keystore services throw. The services live in
 * the composition root (src/devnet, src/node/keystore) and extend these; the handlers answer
 * any of them as -32000 with its text (namespace-params.ts `toRpcError`), without knowing the node.
 */
export class DevnetError extends Error {
  override name = 'DevnetError';
}

export class KeystoreError extends Error {
  override name = 'KeystoreError';
}
