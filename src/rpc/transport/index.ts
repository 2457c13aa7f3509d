export { startHttpServer } from './server.js';
export { BACKEND_ENV } from './backend.js';
export { BackendUnavailableError, InvalidBackendError, ListenError, TransportError } from './errors.js';
export type {
  BackendChoice,
  BackendName,
  CorsOptions,
  HttpRequest,
  HttpResponse,
  RunningServer,
  ServerOptions,
  WebSocketOptions,
  WsConnection,
  WsHandlers,
} from './types.js';
