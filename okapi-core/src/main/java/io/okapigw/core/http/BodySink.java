package io.okapigw.core.http;

import io.netty.buffer.ByteBuf;

/**
 * Where a message body goes as it is read, in Netty's buffers, on the event loop that reads it: how
 * the proxy relays bodies between a client's connection and a module's without a copy.
 */
public interface BodySink {

  /** A piece of the body, which the sink now owns (and must release or pass on). */
  void chunk(ByteBuf data);

  /** The connection read all it had for now: a good moment to flush what the pieces went to. */
  default void readComplete() {}

  /** The body ended. */
  void end();

  /** The body cannot be read to its end (the connection broke, a timeout). */
  void failed(Throwable failure);
}
