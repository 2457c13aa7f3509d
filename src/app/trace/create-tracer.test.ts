import { describe, expect, it } from 'vitest';
import { CallTracer } from './call-tracer.js';
import { createTracer, parseGoDuration, traceTimeoutMs } from './create-tracer.js';
import { PrestateTracer } from './prestate-tracer.js';
import { StructLogger } from './struct-logger.js';

describe('createTracer', () => {
  it('picks the tracer geth would', () => {
    expect(createTracer()).toBeInstanceOf(StructLogger);
    expect(createTracer({ tracer: '' })).toBeInstanceOf(StructLogger);
    expect(createTracer({ tracer: 'callTracer' })).toBeInstanceOf(CallTracer);
    expect(createTracer({ tracer: 'prestateTracer', tracerConfig: { diffMode: true } })).toBeInstanceOf(PrestateTracer);
    expect(() => createTracer({ tracer: 'function() { return 1 }' })).toThrow(/^tracer not found/);
    expect(() => createTracer({ tracer: 'callTracer', tracerConfig: { onlyTopCall: 1 } })).toThrow(
      'json: cannot unmarshal number into Go struct field callTracerConfig.onlyTopCall of type bool',
    );
  });
});

describe('trace timeout (Go durations)', () => {
  it('parses what time.ParseDuration accepts', () => {
    expect(traceTimeoutMs()).toBe(5000);
    expect(parseGoDuration('5s')).toBe(5000);
    expect(parseGoDuration('300ms')).toBe(300);
    expect(parseGoDuration('1m30s')).toBe(90_000);
    expect(parseGoDuration('1.5h')).toBe(5_400_000);
    expect(parseGoDuration('250us')).toBeCloseTo(0.25);
    expect(parseGoDuration('0')).toBe(0);
  });

  it('refuses the rest with Go errors', () => {
    expect(() => parseGoDuration('5')).toThrow('time: missing unit in duration "5"');
    expect(() => parseGoDuration('five seconds')).toThrow('time: invalid duration "five seconds"');
    expect(() => parseGoDuration('')).toThrow('time: invalid duration ""');
  });
});
