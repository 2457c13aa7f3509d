export { startHttpServer } from './server.js';
export { BACKEND_ENV } from './backend.js';
export { DEFAULT_MAX_URL_BYTES, SLOW_CLIENT_CLOSE_CODE, jsonRpcTransportError } from './transport-errors.js';
export { corsOptionsOf } from './cors.js';
export { BackendUnavailableError, InvalidBackendError, ListenError, TransportError } from './errors.js';
export type {
  BackendChoice,
  BackendName,
  CorsOptions,
  HttpRequest,
  HttpResponse,
  RunningServer,
  ServerOptions,
  TransportErrorFormatter,
  WebSocketOptions,
  WsConnection,
  WsHandlers,
} from './types.js';
