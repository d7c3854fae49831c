package io.okapigw.core.upstream;

import java.io.IOException;

/** A module connection closed (or could not be opened) before the call on it was over. */
final class ConnectionClosed extends IOException {
  private static final long serialVersionUID = 1L;

  ConnectionClosed() {
    super("connection closed before the answer was complete");
  }

  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }
}
