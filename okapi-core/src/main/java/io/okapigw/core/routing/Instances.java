package io.okapigw.core.routing;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** The running instances of one module; {@link #next()} takes them round-robin. */
public final class Instances {

  private final String moduleId;
  private final List<String> urls;
  private final AtomicInteger counter = new AtomicInteger();

  Instances(String moduleId, List<String> urls) {
    this.moduleId = moduleId;
    this.urls = List.copyOf(urls);
  }

  public String moduleId() {
    return moduleId;
  }

  /** @return the base URL of the next instance, or empty if the module has none */
  public Optional<String> next() {
    if (urls.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(urls.get(Math.floorMod(counter.getAndIncrement(), urls.size())));
  }

  public List<String> urls() {
    return urls;
  }
}
