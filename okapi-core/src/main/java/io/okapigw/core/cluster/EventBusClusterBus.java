package io.okapigw.core.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.cluster.ClusterManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Request/reply over Vert.x's clustered event bus to node-specific addresses ({@code
 * okapigw.<topic>.<nodeId>}), so every member's answer is counted.
 */
final class EventBusClusterBus implements ClusterBus {

  private static final Logger log = LoggerFactory.getLogger(EventBusClusterBus.class);

  private final Vertx vertx;
  private final ClusterManager manager;
  private final DeliveryOptions delivery;

  EventBusClusterBus(Vertx vertx, ClusterManager manager, Duration timeout) {
    this.vertx = vertx;
    this.manager = manager;
    this.delivery = new DeliveryOptions().setSendTimeout(timeout.toMillis());
  }

  @Override
  public String nodeId() {
    return manager.getNodeId();
  }

  @Override
  public List<String> members() {
    return List.copyOf(manager.getNodes());
  }

  @Override
  public Future<Void> serve(String topic, Function<JsonObject, Future<Void>> handler) {
    return vertx
        .eventBus()
        .<JsonObject>consumer(address(topic, nodeId()), message -> answer(message, handler))
        .completion();
  }

  private static void answer(
      Message<JsonObject> message, Function<JsonObject, Future<Void>> handler) {
    handler
        .apply(message.body())
        .onSuccess(v -> message.reply("ok"))
        .onFailure(e -> message.fail(500, e.getMessage()));
  }

  @Override
  public Future<List<String>> broadcast(String topic, JsonObject body) {
    List<String> others = new ArrayList<>(manager.getNodes());
    others.remove(nodeId());
    List<Future<String>> answers =
        others.stream()
            .map(
                node ->
                    vertx
                        .eventBus()
                        .request(address(topic, node), body, delivery)
                        .map(reply -> (String) null)
                        .recover(
                            e -> {
                              log.warn(
                                  "cluster member {} did not acknowledge {}: {}",
                                  node,
                                  topic,
                                  e.getMessage());
                              return Future.succeededFuture(node);
                            }))
            .toList();
    return Future.join(answers)
        .map(all -> answers.stream().map(Future::result).filter(node -> node != null).toList());
  }

  private static String address(String topic, String node) {
    return "okapigw." + topic + "." + node;
  }
}
