package io.okapigw.core.cluster;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.util.List;

/**
 * The gateway nodes of {@code /_/discovery/nodes}: the cluster's members (this node alone when not
 * clustered), each as Okapi describes a node, {@code {nodeId, url, nodeName}}, the URL being the
 * {@code okapi-url} the node was started with, the name its {@code nodename} (when given). Each
 * node records its own at start in a cluster-wide map; members that left are not listed.
 */
public final class ClusterNodes {

  private static final String MAP = "okapigw.discovery.nodes";

  private ClusterNodes() {}

  /**
   * Records this node, so that every member can list it.
   *
   * @param url the node's {@code okapi-url}
   * @param nodeName the node's {@code nodename}, or null
   */
  public static Future<Void> register(Vertx vertx, ClusterBus bus, String url, String nodeName) {
    JsonObject node = new JsonObject().put("nodeId", bus.nodeId()).put("url", url);
    if (nodeName != null) {
      node.put("nodeName", nodeName);
    }
    return map(vertx).compose(nodes -> nodes.put(bus.nodeId(), node));
  }

  /**
   * @return every current member, in the cluster manager's order
   */
  public static Future<List<JsonObject>> list(Vertx vertx, ClusterBus bus) {
    List<String> members = bus.members();
    return map(vertx)
        .compose(
            nodes ->
                Future.all(
                    members.stream()
                        .map(
                            id ->
                                nodes
                                    .get(id)
                                    .map(n -> n == null ? new JsonObject().put("nodeId", id) : n))
                        .toList()))
        .map(all -> all.<JsonObject>list().stream().map(JsonObject::copy).toList());
  }

  /**
   * Names a node, as Okapi's {@code PUT /_/discovery/nodes/{nodeId}}: the body is the node, {@code
   * {nodeId, url, nodeName}}, with its id and URL unchanged; its {@code nodeName} is then another
   * way to find it.
   *
   * @return the node as stored; 404 if {@code nodeId} is no current member, 400 if the body changes
   *     its id or URL
   */
  public static Future<JsonObject> update(
      Vertx vertx, ClusterBus bus, String nodeId, JsonObject node) {
    if (!bus.members().contains(nodeId)) {
      return Future.failedFuture(notFound(nodeId));
    }
    return map(vertx)
        .compose(
            nodes ->
                nodes
                    .get(nodeId)
                    .compose(
                        old -> {
                          if (!nodeId.equals(node.getValue("nodeId"))) {
                            throw HttpError.badRequest("Can not change nodeId for node " + nodeId);
                          }
                          if (old == null || !old.getValue("url").equals(node.getValue("url"))) {
                            throw HttpError.badRequest("Can not change the URL for node " + nodeId);
                          }
                          JsonObject stored = named(old, node.getValue("nodeName"));
                          return nodes.put(nodeId, stored).map(stored);
                        }));
  }

  private static JsonObject named(JsonObject node, Object name) {
    JsonObject named = new JsonObject().put("nodeId", node.getString("nodeId"));
    named.put("url", node.getValue("url"));
    if (name != null) {
      named.put("nodeName", name.toString());
    }
    return named;
  }

  /**
   * @param ref a node id, a node's URL or its name
   * @return the node; 404 if no current member matches
   */
  public static Future<JsonObject> find(Vertx vertx, ClusterBus bus, String ref) {
    return list(vertx, bus)
        .map(
            nodes ->
                nodes.stream()
                    .filter(
                        n ->
                            ref.equals(n.getString("nodeId"))
                                || ref.equals(n.getString("url"))
                                || ref.equals(n.getValue("nodeName")))
                    .findFirst()
                    .orElseThrow(() -> notFound(ref)));
  }

  private static HttpError notFound(String ref) {
    return HttpError.notFound(
        "Node " + ref + " not found (GET /_/discovery/nodes lists the members)");
  }

  private static Future<AsyncMap<String, JsonObject>> map(Vertx vertx) {
    return vertx.sharedData().getAsyncMap(MAP);
  }
}
