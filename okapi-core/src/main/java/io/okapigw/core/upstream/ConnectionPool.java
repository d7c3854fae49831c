package io.okapigw.core.upstream;

import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The connections of one event loop to one module instance address: at most {@code
 * proxy.max-connections} open (or being opened) at once; a call that finds none free waits for one,
 * first come first served, however many wait. The connection used last is used first, so that the
 * fewest stay warm; one idle for longer than the keep-alive timeout (60 s, as Vert.x's client) is
 * closed rather than used, before the module closes it under a request. Confined to the loop.
 */
final class ConnectionPool {

  /** How long a pooled connection may stay idle and still be used. */
  static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(60);

  private final LoopConnections loop;
  private final Origin origin;
  private final int max;
  private final ArrayDeque<ModuleConnection> idle = new ArrayDeque<>();
  private final ArrayDeque<Promise<ModuleConnection>> waiting = new ArrayDeque<>();
  private int open;

  ConnectionPool(LoopConnections loop, Origin origin, int max) {
    this.loop = loop;
    this.origin = origin;
    this.max = max;
  }

  /** Hands {@code acquired} a connection: an idle one, a new one, or the next one released. */
  void acquire(Promise<ModuleConnection> acquired) {
    long now = System.nanoTime();
    for (ModuleConnection c; (c = idle.pollFirst()) != null; ) {
      if (c.usable(now, KEEP_ALIVE_NANOS)) {
        acquired.complete(c);
        return;
      }
      c.close();
    }
    if (open < max) {
      connect(acquired);
    } else {
      waiting.add(acquired);
    }
  }

  /** A connection whose call is over, ready for the next. */
  void release(ModuleConnection connection) {
    Promise<ModuleConnection> next = waiting.poll();
    if (next != null) {
      next.complete(connection);
    } else {
      idle.addFirst(connection);
    }
  }

  /** A connection of this pool closed. */
  void closed(ModuleConnection connection) {
    idle.remove(connection);
    open--;
    if (!waiting.isEmpty() && open < max) {
      connect(waiting.poll());
    }
  }

  /** Closes the idle connections; those in use close when their calls end. */
  void closeIdle() {
    for (ModuleConnection c; (c = idle.pollFirst()) != null; ) {
      c.close();
    }
  }

  private void connect(Promise<ModuleConnection> acquired) {
    open++;
    loop.connect(origin, this)
        .onComplete(
            done -> {
              if (done.succeeded()) {
                acquired.complete(done.result());
              } else {
                open--;
                acquired.fail(done.cause());
                if (!waiting.isEmpty() && open < max) {
                  connect(waiting.poll());
                }
              }
            });
  }
}
