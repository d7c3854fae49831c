package io.okapigw.core.routing;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** The running instances of one module; {@link #next()} takes them round-robin. */
public final class Instances {

  private final String moduleId;
  private final List<Endpoint> endpoints;
  private final AtomicInteger counter = new AtomicInteger();

  /**
   * @param urls the instances' URLs, as registered in discovery
   */
  public static Instances of(String moduleId, List<String> urls) {
    return new Instances(moduleId, urls);
  }

  Instances(String moduleId, List<String> urls) {
    this.moduleId = moduleId;
    this.endpoints = urls.stream().map(Endpoint::parse).toList();
  }

  /**
   * @return the module these are instances of
   */
  public String moduleId() {
    return moduleId;
  }

  /**
   * @return the instances, in discovery's order
   */
  public List<Endpoint> endpoints() {
    return endpoints;
  }

  /**
   * @return the next instance, or empty if the module has none
   */
  public Optional<Endpoint> next() {
    if (endpoints.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(endpoints.get(rotate()));
  }

  /**
   * @return where the next look over the instances starts, round-robin: an index into {@link
   *     #endpoints()}; 0 when there are none
   */
  public int rotate() {
    return endpoints.isEmpty() ? 0 : Math.floorMod(counter.getAndIncrement(), endpoints.size());
  }
}
