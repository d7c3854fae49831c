package io.okapigw.perf.kit.modules;

import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;

/**
 * A body of any size made up on the fly: byte {@code i} is always {@code 'a' + (i % CHUNK_SIZE) %
 * 26}, so every body of a size is identical, and only one {@value #CHUNK_SIZE}-byte chunk is ever
 * held, whatever the size. It honours back-pressure ({@link #pause()}, {@link #fetch(long)}) and,
 * when flowing, yields the event loop every {@value #BATCH} chunks.
 *
 * <p>Not thread-safe: use it on the context it was created for (a pipe does).
 */
public final class GeneratedBody implements ReadStream<Buffer> {

  /** Bytes per emitted buffer (the last one may be shorter). */
  public static final int CHUNK_SIZE = 64 * 1024;

  private static final int BATCH = 16;
  private static final Buffer PATTERN = pattern();

  private final Context context;
  private final long size;
  private long emitted;
  private long demand = Long.MAX_VALUE;
  private boolean scheduled;
  private boolean ended;
  private Handler<Buffer> handler;
  private Handler<Void> endHandler;

  private GeneratedBody(Context context, long size) {
    this.context = context;
    this.size = size;
  }

  /**
   * @param context where the handlers are called
   * @param size bytes in the body, {@code >= 0}
   * @return a body that starts flowing once a handler is set
   */
  public static GeneratedBody of(Context context, long size) {
    if (size < 0) {
      throw new IllegalArgumentException("size must be >= 0, was " + size);
    }
    return new GeneratedBody(context, size);
  }

  /**
   * @return the byte at {@code offset} of every generated body
   */
  public static byte byteAt(long offset) {
    return PATTERN.getByte((int) (offset % CHUNK_SIZE));
  }

  @Override
  public GeneratedBody exceptionHandler(Handler<Throwable> handler) {
    return this; // generating cannot fail
  }

  @Override
  public GeneratedBody handler(Handler<Buffer> handler) {
    this.handler = handler;
    schedule();
    return this;
  }

  @Override
  public GeneratedBody pause() {
    demand = 0;
    return this;
  }

  @Override
  public GeneratedBody resume() {
    return fetch(Long.MAX_VALUE);
  }

  @Override
  public GeneratedBody fetch(long amount) {
    demand = Long.MAX_VALUE - demand < amount ? Long.MAX_VALUE : demand + amount;
    schedule();
    return this;
  }

  @Override
  public GeneratedBody endHandler(Handler<Void> endHandler) {
    this.endHandler = endHandler;
    return this;
  }

  // Emission always runs in a later event-loop turn, so handlers can be set in any order and
  // a consumer calling fetch() from its handler cannot recurse.
  private void schedule() {
    if (!scheduled && !ended && handler != null) {
      scheduled = true;
      context.runOnContext(v -> emit());
    }
  }

  private void emit() {
    scheduled = false;
    for (int n = 0; n < BATCH && handler != null && demand > 0 && emitted < size; n++) {
      int length = (int) Math.min(CHUNK_SIZE, size - emitted);
      emitted += length;
      if (demand != Long.MAX_VALUE) {
        demand--;
      }
      handler.handle(length == CHUNK_SIZE ? PATTERN : PATTERN.slice(0, length));
    }
    if (emitted == size && !ended && handler != null) {
      ended = true;
      if (endHandler != null) {
        endHandler.handle(null);
      }
    } else if (demand > 0) {
      schedule();
    }
  }

  private static Buffer pattern() {
    Buffer buffer = Buffer.buffer(CHUNK_SIZE);
    for (int i = 0; i < CHUNK_SIZE; i++) {
      buffer.appendByte((byte) ('a' + i % 26));
    }
    return buffer;
  }
}
