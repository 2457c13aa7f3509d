/**
 * One client connection of the ABCI socket server: frames in, requests answered one at a time in
 * order, responses out, with backpressure both ways.
 *
 *   socket 'data' ─> FrameReader ─> decoded requests (queue) ─> handle (the app, under its lock) ─> write
 *        ▲ paused while the client leaves our writes unread (write() false, until 'drain')
 *        └ or while the queue holds more than maxQueueBytes of requests (the app lags)
 *
 * A malformed or oversized frame closes the connection with a logged reason; on close everything
 * the connection holds (buffered bytes, queued requests) is dropped.
 */
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { encodeFrame, FrameReader } from './framing.js';
import { WireRequest, WireResponse, type W } from './wire.js';

/** Default of `maxQueueBytes`: decoded requests may wait up to this many frame bytes before reading stops. */
export const QUEUE_HIGH_WATER_BYTES = 4 * 1024 * 1024;

export interface ConnectionStats {
  /** Bytes received and not yet a whole frame. */
  bufferedBytes: number;
  /** Requests decoded and not answered yet. */
  queuedRequests: number;
  /** Reading is paused (the client does not read its answers, or the app lags). */
  paused: boolean;
  /** Bytes of answers written and not yet taken by the kernel. */
  writeBacklogBytes: number;
}

export class AbciConnection {
  private readonly reader: FrameReader;
  private queue: { req: W.Request; bytes: number }[] = [];
  private queuedBytes = 0;
  private running = false;
  private closed = false;
  private paused = false;

  constructor(
    private readonly socket: Socket,
    private readonly handle: (req: W.Request) => Promise<W.Response>,
    maxMessageBytes: number,
    private readonly logger: Logger,
    onClose: () => void,
    /** Reading stops while more than this many bytes of requests wait for the app. */
    private readonly maxQueueBytes: number = QUEUE_HIGH_WATER_BYTES,
  ) {
    this.reader = new FrameReader(maxMessageBytes);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => {
      this.updateFlow();
      void this.pump();
    });
    socket.on('error', (err) => logger.debug({ err }, 'abci socket error'));
    socket.on('close', () => {
      this.release();
      onClose();
    });
  }

  stats(): ConnectionStats {
    return {
      bufferedBytes: this.reader.bufferedBytes,
      queuedRequests: this.queue.length,
      paused: this.paused,
      writeBacklogBytes: this.closed ? 0 : this.socket.writableLength,
    };
  }

  destroy(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    let frames: Uint8Array[];
    try {
      frames = this.reader.push(chunk);
    } catch (err) {
      this.fail(err as Error);
      return;
    }
    for (const frame of frames) {
      let req: W.Request;
      try {
        req = WireRequest.decode(frame);
      } catch (err) {
        this.fail(new Error(`malformed ABCI request: ${(err as Error).message}`));
        return;
      }
      this.queue.push({ req, bytes: frame.length });
      this.queuedBytes += frame.length;
    }
    this.updateFlow();
    void this.pump();
  }

  /** Answers queued requests in order, one at a time; waits for 'drain' while writes back up. */
  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (!this.closed && this.queue.length > 0 && !this.socket.writableNeedDrain) {
        const { req, bytes } = this.queue.shift()!;
        this.queuedBytes -= bytes;
        const res = await this.answer(req);
        if (this.closed) return;
        this.socket.write(encodeFrame(WireResponse.encode(res).finish()));
        this.updateFlow();
      }
    } finally {
      this.running = false;
    }
  }

  /** The app's answer, or `Response.exception` with the text of what it threw. */
  private async answer(req: W.Request): Promise<W.Response> {
    try {
      return await this.handle(req);
    } catch (err) {
      this.logger.error({ err }, 'abci request failed');
      return { exception: { error: (err as Error).message ?? String(err) } };
    }
  }

  /** Reads only while the client takes its answers and the queue is short. */
  private updateFlow(): void {
    if (this.closed) return;
    const hold = this.socket.writableNeedDrain || this.queuedBytes > this.maxQueueBytes;
    if (hold && !this.paused) {
      this.paused = true;
      this.socket.pause();
    } else if (!hold && this.paused) {
      this.paused = false;
      this.socket.resume();
    }
  }

  private fail(err: Error): void {
    this.logger.error({ err, remote: this.socket.remoteAddress ?? 'unix' }, 'abci connection closed');
    this.socket.destroy();
    this.release();
  }

  private release(): void {
    this.closed = true;
    this.paused = false;
    this.queue = [];
    this.queuedBytes = 0;
    this.reader.clear();
  }
}
