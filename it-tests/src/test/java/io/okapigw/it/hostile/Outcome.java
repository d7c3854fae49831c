package io.okapigw.it.hostile;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What one request got: a status, or -1 and why none came; and how long it took.
 *
 * @param detail the response, or the failure
 */
record Outcome(int status, long millis, String detail) {

  /** Sends a request, timing it; a failure (a timeout, a close) becomes status -1. */
  static Outcome of(Callable<RawResponse> request) {
    long start = System.nanoTime();
    try {
      RawResponse response = request.call();
      return new Outcome(response.status(), millisSince(start), response.toString());
    } catch (Exception e) {
      return new Outcome(-1, millisSince(start), e.toString());
    }
  }

  /**
   * Sends {@code n} requests at once, each on a thread of its own.
   *
   * @param bound how long to wait for all of them; one still running then is status -1
   */
  static List<Outcome> concurrently(int n, Duration bound, Callable<RawResponse> request)
      throws InterruptedException {
    ExecutorService threads = Executors.newFixedThreadPool(n);
    try {
      List<Future<Outcome>> running = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        running.add(threads.submit(() -> of(request)));
      }
      long deadline = System.nanoTime() + bound.toNanos();
      List<Outcome> outcomes = new ArrayList<>();
      for (Future<Outcome> f : running) {
        try {
          outcomes.add(f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
          outcomes.add(new Outcome(-1, bound.toMillis(), "no answer within " + bound));
        } catch (ExecutionException e) {
          outcomes.add(new Outcome(-1, -1, e.getCause().toString()));
        }
      }
      return outcomes;
    } finally {
      threads.shutdownNow();
    }
  }

  private static long millisSince(long start) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  @Override
  public String toString() {
    return status + " after " + millis + " ms: " + detail;
  }
}
