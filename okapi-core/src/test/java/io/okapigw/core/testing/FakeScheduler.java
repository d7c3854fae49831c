package io.okapigw.core.testing;

import io.okapigw.core.timer.Scheduler;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * A scheduler on a fake clock: tasks run only when the test advances it, in time order, each one's
 * work (its future) awaited before the next, so after {@link #advance} every call a timer made has
 * been answered. Handed to several gateway nodes, it is one clock for the cluster.
 */
public final class FakeScheduler implements Scheduler {

  private static final long TASK_TIMEOUT_SECONDS = 10;

  private final PriorityQueue<Task> tasks =
      new PriorityQueue<>(Comparator.comparing(Task::at).thenComparingLong(Task::seq));
  private Instant now;
  private long seq;

  public FakeScheduler(Instant start) {
    this.now = start;
  }

  private record Task(Instant at, long seq, Supplier<Future<Void>> work) {}

  @Override
  public synchronized Instant now() {
    return now;
  }

  @Override
  public synchronized Cancellable at(Instant at, Supplier<Future<Void>> work) {
    Task task = new Task(at, seq++, work);
    tasks.add(task);
    return () -> cancel(task);
  }

  private synchronized void cancel(Task task) {
    tasks.remove(task);
  }

  /**
   * @return how many tasks wait
   */
  public synchronized int pending() {
    return tasks.size();
  }

  /** Advances the clock by {@code duration}; see {@link #advanceTo}. */
  public void advance(Duration duration) {
    advanceTo(now().plus(duration));
  }

  /**
   * Advances the clock by {@code duration}, starting every task due by then in time order without
   * awaiting its work: for a task whose call the test holds on purpose.
   */
  public void advanceStarting(Duration duration) {
    advanceTo(now().plus(duration), false);
  }

  /**
   * Moves the clock to {@code target}, running every task due by then in time order (the clock
   * reads each task's instant while it runs); fails if a task's work takes over 10 s.
   */
  public void advanceTo(Instant target) {
    advanceTo(target, true);
  }

  private void advanceTo(Instant target, boolean await) {
    while (true) {
      Task next;
      synchronized (this) {
        next = tasks.peek();
        if (next == null || next.at().isAfter(target)) {
          now = target.isAfter(now) ? target : now;
          return;
        }
        tasks.poll();
        now = next.at().isAfter(now) ? next.at() : now;
      }
      Future<Void> work = next.work().get();
      if (!await) {
        continue;
      }
      try {
        work.await(TASK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError(
            "a task due at " + next.at() + " did not finish within " + TASK_TIMEOUT_SECONDS + " s",
            e);
      }
    }
  }
}
