package io.okapigw.core.deployment;

import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.cluster.ClusterNodes;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.LogText;
import io.okapigw.core.install.AutoDeploy;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.Discovery;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.TenantModules;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deployment across the cluster, as Okapi's discovery does it: a deployment names a node (its id,
 * name or URL, {@code /_/discovery/nodes}) and that node starts the module ({@link NodeDeployer},
 * reached over the event bus, this node too); removing a deployed instance from discovery stops it
 * on its node; {@code install?deploy=true} deploys a module without instances on every node and
 * undeploys one no tenant uses any more. Instances registered by URL are only registered and
 * removed.
 */
public final class Deployments implements AutoDeploy {

  private static final Logger log = LoggerFactory.getLogger(Deployments.class);

  private static final String ADDRESS = "okapigw.deployment.";

  /** How long a deployment may take on its node (pulling an image, starting): Okapi's hour. */
  private static final DeliveryOptions DELIVERY = new DeliveryOptions().setSendTimeout(3_600_000);

  private final Vertx vertx;
  private final ClusterBus bus;
  private final NodeDeployer node;
  private final Registry registry;
  private final Discovery discovery;
  private MessageConsumer<JsonObject> consumer;

  /**
   * @param node the modules this node starts
   */
  public Deployments(Vertx vertx, ClusterBus bus, NodeDeployer node, Registry registry) {
    this.vertx = vertx;
    this.bus = bus;
    this.node = node;
    this.registry = registry;
    this.discovery = registry.discovery();
  }

  /**
   * @return the modules this node started ({@code /_/deployment/modules})
   */
  public NodeDeployer node() {
    return node;
  }

  /** Answers the deployments other nodes (and this one) send this node. */
  public Future<Void> start() {
    consumer = vertx.eventBus().consumer(ADDRESS + bus.nodeId(), this::serve);
    return consumer.completion();
  }

  private void serve(Message<JsonObject> message) {
    JsonObject body = message.body();
    Future<JsonObject> done =
        switch (body.getString("op", "")) {
          case "deploy" ->
              Future.succeededFuture(body.getJsonObject("request"))
                  .map(DeploymentRequest::fromJson)
                  .compose(node::deploy)
                  .map(DeploymentDescriptor::toJson);
          case "undeploy" -> node.undeploy(body.getString("instId")).map(new JsonObject());
          default -> Future.failedFuture(HttpError.badRequest("unknown operation"));
        };
    done.onSuccess(message::reply)
        .onFailure(
            e ->
                message.fail(
                    e instanceof HttpError h ? h.status() : 500,
                    e.getMessage() == null ? e.toString() : e.getMessage()));
  }

  /**
   * Okapi's {@code POST /_/discovery/modules} with a {@code nodeId}: deploys on that node, from the
   * request's {@code descriptor} or else the module's {@code launchDescriptor}. Failures are
   * answered as Okapi's {@code DiscoveryManager} answers them: an unknown module 404 naming just
   * its id, an unknown node 404, and whatever the node's deployment failed with 400 prefixed with
   * the node's deploy address ({@code http://localhost:9130/deploy all ports in use}).
   *
   * @return the instance; 404 unknown module or node, 400 a module without a launch descriptor or
   *     one the node could not start
   */
  public Future<DeploymentDescriptor> deployOn(DeploymentRequest request) {
    if (request.srvcId() == null) {
      return Future.failedFuture(HttpError.badRequest("Needs srvcId"));
    }
    Future<DeploymentRequest> launchable =
        request.descriptor() != null
            ? Future.succeededFuture(request)
            : registry
                .module(request.srvcId())
                .recover(e -> Future.failedFuture(unknown(request.srvcId(), e)))
                .map(m -> request.withDescriptor(launchOf(m)));
    return launchable.compose(
        r ->
            ClusterNodes.find(vertx, bus, r.nodeId())
                .compose(
                    found -> {
                      String address = found.getString("url") + "/deploy";
                      return send(
                              found.getString("nodeId"),
                              new JsonObject().put("op", "deploy").put("request", r.toJson()))
                          .recover(
                              e ->
                                  Future.failedFuture(
                                      HttpError.badRequest(address + " " + e.getMessage())));
                    })
                .map(DeploymentDescriptor::stored));
  }

  /** Okapi's 404 for a module it does not know: its id alone. */
  private static Throwable unknown(String srvcId, Throwable e) {
    return e instanceof HttpError h && h.status() == 404 ? HttpError.notFound(srvcId) : e;
  }

  private static LaunchDescriptor launchOf(ModuleDescriptor module) {
    Object launch = module.toJson().getValue("launchDescriptor");
    if (!(launch instanceof JsonObject json)) {
      throw HttpError.badRequest("Module " + module.id() + " has no launchDescriptor");
    }
    return LaunchDescriptor.of(json);
  }

  /**
   * Removes instances from discovery, as Okapi's {@code DELETE /_/discovery/modules[/srvcId[/
   * instId]]}: one deployed by a node is stopped there first (one whose node is gone is just
   * removed).
   *
   * @param srvcId null for every instance
   * @param instId null for every instance of {@code srvcId}
   * @return 404 if none matched (except for every instance of every module)
   */
  public Future<Void> remove(String srvcId, String instId) {
    if (srvcId == null) {
      return discovery
          .instances(null)
          .compose(all -> removeEach(all.stream().filter(DeploymentDescriptor::deployed)))
          .compose(v -> discovery.removeAll());
    }
    return discovery
        .instances(srvcId)
        .map(all -> all.stream().filter(d -> instId == null || d.instId().equals(instId)).toList())
        .compose(
            matched -> {
              if (matched.isEmpty()) {
                return Future.failedFuture(
                    HttpError.notFound("no deployment " + srvcId + "/" + instId));
              }
              return removeEach(matched.stream());
            });
  }

  private Future<Void> removeEach(Stream<DeploymentDescriptor> instances) {
    return Future.all(instances.map(this::remove).toList()).mapEmpty();
  }

  private Future<Void> remove(DeploymentDescriptor instance) {
    if (!instance.deployed()) {
      return discovery.remove(instance.srvcId(), instance.instId());
    }
    return ClusterNodes.find(vertx, bus, instance.nodeId())
        .compose(
            found ->
                send(
                        found.getString("nodeId"),
                        new JsonObject().put("op", "undeploy").put("instId", instance.instId()))
                    .<Void>mapEmpty()
                    .recover(e -> notRunning(e) ? gone(instance) : Future.failedFuture(e)),
            nodeGone -> gone(instance));
  }

  /** A deployed instance whose node no longer runs it: only its registration is left. */
  private Future<Void> gone(DeploymentDescriptor instance) {
    log.info(
        "{} instance {}: node {} does not run it; removed from discovery",
        instance.srvcId(),
        instance.instId(),
        instance.nodeId());
    return discovery
        .remove(instance.srvcId(), instance.instId())
        .recover(e -> Future.succeededFuture());
  }

  private static boolean notRunning(Throwable e) {
    return e instanceof HttpError h && h.status() == 404;
  }

  /**
   * Okapi's {@code deploy=true} before an install's modules are told: a module that has no instance
   * is deployed on every node (the okapi module is never deployed).
   */
  @Override
  public Future<Void> deploy(ModuleDescriptor module) {
    if (TenantModules.isOkapiModule(module.id())) {
      return Future.succeededFuture();
    }
    return discovery
        .instances(null)
        .compose(
            all -> {
              if (all.stream().anyMatch(d -> d.srvcId().equals(module.id()))) {
                log.info("autoDeploy {}: already deployed", module.id());
                return Future.succeededFuture();
              }
              LaunchDescriptor launch = launchOf(module);
              return Future.all(
                      bus.members().stream()
                          .map(
                              member ->
                                  deployOn(
                                      new DeploymentRequest(module.id(), null, member, launch)))
                          .toList())
                  .mapEmpty();
            });
  }

  /**
   * Okapi's {@code deploy=true} after an install: the instances a node deployed of a module that no
   * tenant uses any more are stopped and removed (those registered by URL are left).
   */
  @Override
  public Future<Void> undeploy(ModuleDescriptor module) {
    if (TenantModules.isOkapiModule(module.id())) {
      return Future.succeededFuture();
    }
    return registry
        .tenantModules()
        .tenantsUsing(module.id())
        .compose(
            users ->
                !users.isEmpty()
                    ? Future.succeededFuture()
                    : discovery
                        .instances(null)
                        .compose(
                            all ->
                                removeEach(
                                    all.stream()
                                        .filter(d -> d.srvcId().equals(module.id()))
                                        .filter(DeploymentDescriptor::deployed))));
  }

  /**
   * Starts again the modules this node deployed before it stopped, as Okapi does at start: the
   * instances in discovery whose {@code nodeId} names this node (its id, name or URL) and that have
   * a launch descriptor. One that fails is logged and left registered, as Okapi leaves it. What a
   * gateway that is gone left running is ended first ({@link NodeDeployer#endLeftovers()}): a node
   * killed and started again replaces its modules' processes rather than doubling them.
   *
   * @param names what else names this node: its {@code nodename}, its URL (nulls ignored)
   */
  public Future<Void> restart(String... names) {
    Set<String> ours =
        Set.copyOf(
            Stream.concat(Stream.of(bus.nodeId()), Stream.of(names))
                .filter(Objects::nonNull)
                .toList());
    return node.endLeftovers()
        .compose(v -> discovery.instances(null))
        .compose(
            all -> {
              List<DeploymentDescriptor> mine =
                  all.stream()
                      .filter(d -> d.deployed() && d.descriptor() != null)
                      .filter(d -> ours.contains(d.nodeId()))
                      .toList();
              return Future.join(
                      mine.stream()
                          .map(
                              d ->
                                  node.redeploy(d)
                                      .onSuccess(
                                          r ->
                                              log.info(
                                                  "restart: {} instance {} at {}",
                                                  r.srvcId(),
                                                  r.instId(),
                                                  r.url()))
                                      .onFailure(
                                          e ->
                                              log.warn(
                                                  "restart of {} instance {} failed (ignored): {}",
                                                  d.srvcId(),
                                                  d.instId(),
                                                  LogText.message(e))))
                          .toList())
                  .<Void>mapEmpty()
                  .otherwiseEmpty();
            });
  }

  /** Stops the consumer and every module this node started (the node stops). */
  public Future<Void> stop(boolean keepRegistered) {
    Future<Void> unregistered = consumer == null ? Future.succeededFuture() : consumer.unregister();
    return unregistered.eventually(() -> node.stopAll(keepRegistered));
  }

  private Future<JsonObject> send(String nodeId, JsonObject message) {
    return vertx
        .eventBus()
        .<JsonObject>request(ADDRESS + nodeId, message, DELIVERY)
        .map(Message::body)
        .recover(e -> Future.failedFuture(asHttpError(nodeId, e)));
  }

  private static Throwable asHttpError(String nodeId, Throwable e) {
    if (e instanceof ReplyException reply) {
      if (reply.failureType() == ReplyFailure.RECIPIENT_FAILURE) {
        return new HttpError(reply.failureCode(), reply.getMessage());
      }
      if (reply.failureType() == ReplyFailure.NO_HANDLERS) {
        return HttpError.notFound("Node " + nodeId + " not found");
      }
      return new HttpError(504, "node " + nodeId + " did not answer: " + reply.getMessage());
    }
    return e;
  }
}
