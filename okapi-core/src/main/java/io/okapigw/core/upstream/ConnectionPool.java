package io.okapigw.core.upstream;

import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The connections of one event loop to one module instance address: at most {@code
 * proxy.max-connections} open (or being opened) at once; a call that finds none free waits for one,
 * first come first served, however many wait. A connection whose call is over is handed to no other
 * call until it has been idle for {@code proxy.reuse-quiet}: a second answer nobody asked for that
 * comes meanwhile is read on an idle connection, which is then closed and its instance ejected
 * ({@link StrictClientCodec}), instead of being taken for the next call's answer. Among the quiet
 * connections the one used last is used first, so that the fewest stay warm and none is used just
 * as a module's own keep-alive timeout closes it; a call that finds none quiet opens a new one; at
 * {@code proxy.max-connections} it takes the one idle longest, quiet or not (the window holds below
 * saturation: at it, a connect per call or a wait of the window would cost every call), and waits
 * only when none is idle. One idle for longer than the keep-alive timeout (60 s, as Vert.x's
 * client) is closed rather than used, before the module closes it under a request. Confined to the
 * loop.
 */
final class ConnectionPool {

  /** How long a pooled connection may stay idle and still be used. */
  static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(60);

  private final LoopConnections loop;
  private final Origin origin;
  private final int max;
  private final long quietNanos;
  private final ArrayDeque<ModuleConnection> idle = new ArrayDeque<>();
  private final ArrayDeque<Promise<ModuleConnection>> waiting = new ArrayDeque<>();
  private int open;

  /**
   * @param quietNanos how long a released connection stays idle before it is used again
   */
  ConnectionPool(LoopConnections loop, Origin origin, int max, long quietNanos) {
    this.loop = loop;
    this.origin = origin;
    this.max = max;
    this.quietNanos = quietNanos;
  }

  /**
   * Hands {@code acquired} a connection: the quiet one released last, a new one, or the first to
   * become quiet.
   */
  void acquire(Promise<ModuleConnection> acquired) {
    ModuleConnection quiet = quiet();
    if (quiet != null) {
      acquired.complete(quiet);
    } else if (open < max) {
      connect(acquired);
    } else {
      ModuleConnection oldest = idle.pollLast();
      if (oldest != null && oldest.usable(System.nanoTime(), KEEP_ALIVE_NANOS)) {
        // none quiet yet and no room: the one idle longest, rather than waiting out the window
        // or closing it for a new one (a connect per call at saturation)
        acquired.complete(oldest);
        return;
      }
      waiting.add(acquired);
      if (oldest != null) {
        oldest.close();
      }
    }
  }

  /** A connection whose call is over: idle, used again once it has been quiet. */
  void release(ModuleConnection connection) {
    idle.addFirst(connection);
    if (waiting.isEmpty()) {
      return;
    }
    if (quietNanos == 0) {
      serveWaiting();
    } else {
      loop.loop().schedule(this::serveWaiting, quietNanos, TimeUnit.NANOSECONDS);
    }
  }

  /** Hands the calls that wait the connections quiet by now. */
  private void serveWaiting() {
    for (ModuleConnection c; !waiting.isEmpty() && (c = quiet()) != null; ) {
      waiting.poll().complete(c);
    }
  }

  /**
   * @return the idle connection released last among those quiet for {@code proxy.reuse-quiet},
   *     taken out of the idle ones; null if none (those past the keep-alive timeout are closed)
   */
  private ModuleConnection quiet() {
    long now = System.nanoTime();
    List<ModuleConnection> stale = null;
    ModuleConnection found = null;
    for (Iterator<ModuleConnection> it = idle.iterator(); it.hasNext(); ) {
      ModuleConnection c = it.next();
      if (!c.usable(now, KEEP_ALIVE_NANOS)) {
        it.remove();
        stale = stale == null ? new ArrayList<>(2) : stale;
        stale.add(c);
      } else if (c.quietFor(now, quietNanos)) {
        it.remove();
        found = c;
        break;
      }
    }
    if (stale != null) {
      stale.forEach(ModuleConnection::close);
    }
    return found;
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
