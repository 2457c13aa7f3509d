/**
 * geth's TraceConfig / TraceCallConfig as debug_trace* params: `tracer`, `tracerConfig`,
 * `timeout`, the struct logger's `disableStack`, `disableStorage`, `enableMemory`,
 * `enableReturnData`, `limit`; `reexec`, `debug`, and traceCall's `stateOverrides` /
 * `blockOverrides` are accepted and ignored (Cosmos EVM ignores them too, cosmos/evm#1180).
 * Field type errors read as Go's JSON decoder words them.
 */
import type { TraceConfig } from '../../../app/trace/index.js';
import { jsonKind, objectOf, typeError, type Decoder } from '../params.js';

const S = 'tracers.TraceConfig';

function bool(o: Record<string, unknown>, key: string): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw typeError(jsonKind(v), 'bool', `${S}.${key}`);
  return v;
}

function str(o: Record<string, unknown>, key: string, goType: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw typeError(jsonKind(v), goType, `${S}.${key}`);
  return v;
}

export const traceConfigOf: Decoder<TraceConfig> = (raw) => {
  const o = objectOf(raw, `*${S}`);
  const cfg: TraceConfig = {
    tracer: str(o, 'tracer', '*string'),
    timeout: str(o, 'timeout', '*string'),
    disableStack: bool(o, 'disableStack'),
    disableStorage: bool(o, 'disableStorage'),
    enableMemory: bool(o, 'enableMemory'),
    enableReturnData: bool(o, 'enableReturnData'),
  };
  const limit = o['limit'];
  if (limit !== undefined && limit !== null) {
    if (typeof limit !== 'number' || !Number.isInteger(limit))
      throw typeError(typeof limit === 'number' ? `number ${limit}` : jsonKind(limit), 'int', `${S}.limit`);
    cfg.limit = limit;
  }
  const tc = o['tracerConfig'];
  if (tc !== undefined && tc !== null) {
    if (typeof tc !== 'object' || Array.isArray(tc)) throw typeError(jsonKind(tc), 'json.RawMessage', `${S}.tracerConfig`);
    cfg.tracerConfig = tc as Record<string, unknown>;
  }
  return cfg;
};
