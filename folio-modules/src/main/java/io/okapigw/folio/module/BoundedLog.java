package io.okapigw.folio.module;

import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Records posted to a write-only collection (notices sent, events published, check-ins): keeps a
 * count of all and the last {@code capacity} records, so that long load runs don't grow memory.
 */
public final class BoundedLog {

  private final int capacity;
  private final Deque<JsonObject> last = new ArrayDeque<>();
  private long total;

  /**
   * @param capacity how many of the latest records to keep, at least 1
   */
  public BoundedLog(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
  }

  /** Adds a copy of {@code record}, dropping the oldest beyond capacity. */
  public synchronized void add(JsonObject record) {
    last.addLast(record.copy());
    if (last.size() > capacity) {
      last.removeFirst();
    }
    total++;
  }

  /**
   * @return how many records were ever added
   */
  public synchronized long total() {
    return total;
  }

  /**
   * @return copies of the kept records, oldest first
   */
  public synchronized List<JsonObject> latest() {
    return last.stream().map(JsonObject::copy).toList();
  }
}
