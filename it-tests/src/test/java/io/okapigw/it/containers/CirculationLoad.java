package io.okapigw.it.containers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Bounded load through one gateway node: {@code users} threads, each checking its own item out to
 * its own patron and in again, until {@code maxOperations} in all or {@code maxTime}, or {@link
 * #close()}. An operation (check-out + check-in) fails unless both answer 2xx.
 */
final class CirculationLoad implements AutoCloseable {

  private final Desk desk;
  private final String token;
  private final int maxOperations;
  private final long deadline;
  private final ExecutorService threads;
  private final List<String> failures = new ArrayList<>();
  private long operations;
  private volatile boolean stopped;

  CirculationLoad(Desk desk, String token, int users, int maxOperations, Duration maxTime) {
    this.desk = desk;
    this.token = token;
    this.maxOperations = maxOperations;
    this.deadline = System.nanoTime() + maxTime.toNanos();
    this.threads = Executors.newFixedThreadPool(users);
    for (int user = 0; user < users; user++) {
      // item I0000<40+u>, patron P0000<41+u>: no other test uses them; no patron is blocked
      String item = Desk.DATA.itemBarcodes().get(40 + user);
      String patron = Desk.DATA.activePatronBarcodes().get(40 + user);
      threads.execute(() -> run(item, patron));
    }
  }

  private void run(String item, String patron) {
    while (!stopped && System.nanoTime() < deadline && operations() < maxOperations) {
      Desk.Answer out = desk.checkOut(token, item, patron);
      Desk.Answer in = out.status() == 201 ? desk.checkIn(token, item) : null;
      record(
          out.status() != 201
              ? "check-out " + item + ": " + out.status() + " " + out.body()
              : in.status() != 200
                  ? "check-in " + item + ": " + in.status() + " " + in.body()
                  : null);
    }
  }

  private synchronized void record(String failure) {
    operations++;
    if (failure != null) {
      failures.add(failure);
    }
    notifyAll();
  }

  synchronized long operations() {
    return operations;
  }

  synchronized List<String> failures() {
    return List.copyOf(failures);
  }

  /**
   * @return whether {@code n} operations were done (successful or not) within {@code timeout}
   */
  synchronized boolean awaitOperations(long n, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (operations < n) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }

  @Override
  public void close() throws InterruptedException {
    stopped = true;
    threads.shutdown();
    if (!threads.awaitTermination(1, TimeUnit.MINUTES)) {
      threads.shutdownNow();
    }
  }
}
