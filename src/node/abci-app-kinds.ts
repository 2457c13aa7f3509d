/** What the CLI's `app` and `rpc` commands name before they load the ABCI server (and its codecs). */
export const DEFAULT_PROXY_APP = 'tcp://127.0.0.1:26658';
