package io.okapigw.core.eureka.events;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.Discovery;
import io.okapigw.core.registry.Registry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A module's instance where Eureka's discovery (mgr-applications) says it runs, registered in the
 * gateway's discovery under an id of its own: {@code {module}-eureka-{8 hex digits of the
 * location's SHA-256}}, so that a moved module gets its new instance before its old one goes (no
 * moment without one). Instances registered through the admin API are left alone.
 */
final class EurekaInstances {

  private static final String MARK = "-eureka";

  private final Registry registry;

  EurekaInstances(Registry registry) {
    this.registry = registry;
  }

  /**
   * Puts the module's Eureka instance at {@code location}: adds it if it is not there, then removes
   * the module's other Eureka instances.
   *
   * @return whether anything changed
   */
  Future<Boolean> place(String srvcId, String location) {
    String instId = instId(srvcId, location);
    return ours(srvcId)
        .compose(
            present -> {
              boolean there =
                  present.stream()
                      .anyMatch(d -> d.instId().equals(instId) && d.url().equals(location));
              Future<Void> added = there ? Future.succeededFuture() : add(srvcId, instId, location);
              return added
                  .compose(v -> remove(present.stream().filter(d -> !d.instId().equals(instId))))
                  .map(removed -> !there || removed);
            });
  }

  /**
   * Adds the instance; one added meanwhile by another tenant's read, or another node's, at the same
   * location is the same instance, not a failure.
   */
  private Future<Void> add(String srvcId, String instId, String location) {
    return registry
        .discovery()
        .add(new JsonObject().put("srvcId", srvcId).put("instId", instId).put("url", location))
        .<Void>mapEmpty()
        .recover(
            e ->
                ours(srvcId)
                    .compose(
                        now ->
                            now.stream()
                                    .anyMatch(
                                        d -> d.instId().equals(instId) && d.url().equals(location))
                                ? Future.succeededFuture()
                                : Future.failedFuture(e)));
  }

  /**
   * Removes the module's Eureka instances (its discovery is gone).
   *
   * @return whether there were any
   */
  Future<Boolean> removeAll(String srvcId) {
    return ours(srvcId).compose(present -> remove(present.stream()));
  }

  private Future<Boolean> remove(java.util.stream.Stream<DeploymentDescriptor> instances) {
    Discovery discovery = registry.discovery();
    List<DeploymentDescriptor> gone = instances.toList();
    Future<Void> all = Future.succeededFuture();
    for (DeploymentDescriptor d : gone) {
      all = all.compose(v -> discovery.remove(d.srvcId(), d.instId()).otherwise(e -> null));
    }
    return all.map(v -> !gone.isEmpty());
  }

  /**
   * @return whether the module has an instance registered otherwise (through the admin API)
   */
  Future<Boolean> byHand(String srvcId) {
    return registry
        .discovery()
        .instances(null)
        .map(
            all ->
                all.stream().anyMatch(d -> d.srvcId().equals(srvcId) && !ours(srvcId, d.instId())));
  }

  private static boolean ours(String srvcId, String instId) {
    return instId.startsWith(srvcId + MARK);
  }

  /** The module's instances this class registered. */
  private Future<List<DeploymentDescriptor>> ours(String srvcId) {
    return registry
        .discovery()
        .instances(null)
        .map(
            all ->
                all.stream()
                    .filter(d -> d.srvcId().equals(srvcId))
                    .filter(d -> ours(srvcId, d.instId()))
                    .toList());
  }

  static String instId(String srvcId, String location) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(location.getBytes(StandardCharsets.UTF_8));
      return srvcId + MARK + "-" + HexFormat.of().formatHex(hash, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
