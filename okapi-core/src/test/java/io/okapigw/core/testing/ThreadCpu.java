package io.okapigw.core.testing;

import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The CPU time a Vert.x instance's event-loop threads and Vert.x worker threads have used: where
 * work ran, counted without a stopwatch. A thread's CPU time does not grow while the machine is
 * busy with other work and the thread waits for a core, so a claim such as "the event loop does not
 * parse this body" holds on a loaded machine too, where a proxied request's latency does not tell a
 * blocked event loop from a descheduled one.
 */
public final class ThreadCpu {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final String WORKER = "vert.x-worker-thread-";

  private final Set<Long> eventLoops;

  private ThreadCpu(Set<Long> eventLoops) {
    this.eventLoops = eventLoops;
  }

  /**
   * @return the CPU time counters of {@code vertx}'s event loops and of Vert.x worker threads
   */
  public static ThreadCpu of(Vertx vertx) throws Exception {
    if (!THREADS.isThreadCpuTimeSupported()) {
      throw new IllegalStateException("this JVM measures no thread CPU time");
    }
    THREADS.setThreadCpuTimeEnabled(true);
    Set<Long> ids = new HashSet<>();
    for (EventExecutor loop : ((VertxInternal) vertx).nettyEventLoopGroup()) {
      ids.add((Long) loop.submit(() -> Thread.currentThread().getId()).get(1, TimeUnit.MINUTES));
    }
    return new ThreadCpu(ids);
  }

  /** CPU time used so far, in nanoseconds. */
  public record Used(long eventLoops, long workers) {

    /**
     * @return what was used since {@code before}
     */
    public Used since(Used before) {
      return new Used(eventLoops - before.eventLoops, workers - before.workers);
    }
  }

  /**
   * @return the CPU time the event loops and the worker threads have used so far
   */
  public Used used() {
    long loops = 0;
    long workers = 0;
    for (long id : THREADS.getAllThreadIds()) {
      ThreadInfo info = THREADS.getThreadInfo(id);
      long cpu = THREADS.getThreadCpuTime(id);
      if (info == null || cpu < 0) {
        continue;
      }
      if (eventLoops.contains(id)) {
        loops += cpu;
      } else if (info.getThreadName().startsWith(WORKER)) {
        workers += cpu;
      }
    }
    return new Used(loops, workers);
  }
}
