/** What the CLI's `app` and `rpc` commands name before they load the ABCI server (and its codecs). */
export const DEFAULT_PROXY_APP = 'tcp://127.0.0.1:26658';

/** The applications `chainlet app` can serve: the EVM app, and CometBFT's kvstore example (issue-7 chains). */
export const APP_KINDS = ['evm', 'kvstore'] as const;
export type AppKind = (typeof APP_KINDS)[number];
