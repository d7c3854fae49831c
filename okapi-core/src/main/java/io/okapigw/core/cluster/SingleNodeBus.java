package io.okapigw.core.cluster;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Function;

/** A node alone: there is nobody else to tell. */
final class SingleNodeBus implements ClusterBus {

  private final String nodeId;

  SingleNodeBus(String nodeId) {
    this.nodeId = nodeId;
  }

  @Override
  public String nodeId() {
    return nodeId;
  }

  @Override
  public List<String> members() {
    return List.of(nodeId());
  }

  @Override
  public Future<Void> serve(String topic, Function<JsonObject, Future<Void>> handler) {
    return Future.succeededFuture();
  }

  @Override
  public Future<List<String>> broadcast(String topic, JsonObject body) {
    return Future.succeededFuture(List.of());
  }
}
