package io.okapigw.core.admin;

import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.Registry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * A discovery POST that asks Okapi to deploy the module itself ({@code nodeId}, perhaps with a
 * launch {@code descriptor}). This gateway does not deploy modules, but such a request fails here
 * as Okapi 6.1.5 fails it first: a launch descriptor without a node (400), a module not registered
 * (404) or without a launch descriptor (400), a node that is not a member (404); what Okapi would
 * deploy is a 400 saying to register the running instance's {@code url} instead.
 */
final class NodeDeployment {

  private NodeDeployment() {}

  /**
   * @param json the posted deployment
   * @return succeeded when it asks for no deployment, else failed with the status Okapi answers or
   *     400
   */
  static Future<Void> refuse(Vertx vertx, ClusterBus bus, Registry registry, JsonObject json) {
    Object node = json.getValue("nodeId");
    boolean launch = json.getValue("descriptor") != null;
    if (!(json.getValue("srvcId") instanceof String srvcId)) {
      return Future.succeededFuture(); // refused as every deployment without one
    }
    if (node == null) {
      return launch
          ? Future.failedFuture(HttpError.badRequest("deployment: a descriptor needs a nodeId"))
          : Future.succeededFuture();
    }
    if (!(node instanceof String nodeId)) {
      return Future.failedFuture(HttpError.badRequest("deployment: nodeId must be a string"));
    }
    Future<Void> launchable = launch ? Future.succeededFuture() : launchable(registry, srvcId);
    return launchable
        .compose(v -> ClusterNodes.find(vertx, bus, nodeId))
        .compose(
            found ->
                Future.failedFuture(
                    HttpError.badRequest(
                        "deployment of "
                            + srvcId
                            + " on node "
                            + nodeId
                            + ": this gateway does not deploy modules; start the module yourself"
                            + " and post its instance without nodeId: {srvcId, instId, url}")));
  }

  private static Future<Void> launchable(Registry registry, String srvcId) {
    return registry
        .module(srvcId)
        .map(
            module -> {
              if (module.toJson().getValue("launchDescriptor") == null) {
                throw HttpError.badRequest("Module " + srvcId + " has no launchDescriptor");
              }
              return null;
            });
  }
}
