package io.okapigw.core.deployment;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.LogText;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.Discovery;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The modules this node started (Okapi's {@code DeploymentManager}, {@code /_/deployment/modules}):
 * each on a port of the node's range, as a process or a container, registered in discovery once it
 * answers, and stopped when it is undeployed or the node stops. Okapi's answers: {@code Needs
 * srvcId}, {@code already deployed: ID}, {@code all ports in use}, {@code No LaunchDescriptor}
 * (400), {@code not found: ID} (404); a module that cannot be started is a 400 saying why, with
 * nothing of it left running, its port free and nothing registered.
 */
public final class NodeDeployer {

  private static final Logger log = LoggerFactory.getLogger(NodeDeployer.class);

  private final Vertx vertx;
  private final DeploymentOptions options;
  private final String nodeId;
  private final Discovery discovery;
  private final Environment environment;
  private final Readiness readiness;
  private final Ports ports;
  private final DockerEngine docker;
  private final ProcessLedger ledger;
  private final Map<String, Running> running = new LinkedHashMap<>();

  /** A module this node started. */
  private record Running(DeploymentDescriptor deployment, ModuleHandle handle, int port) {}

  /**
   * @param nodeId this node's id: an instance's {@code nodeId} when its deployment names none
   * @param modules tells when a started module answers
   */
  public NodeDeployer(
      Vertx vertx,
      DeploymentOptions options,
      String nodeId,
      Discovery discovery,
      Environment environment,
      ModuleClient modules) {
    this.vertx = vertx;
    this.options = options;
    this.nodeId = nodeId;
    this.discovery = discovery;
    this.environment = environment;
    this.readiness = new Readiness(vertx, modules);
    this.ports = new Ports(options.portStart(), options.portEnd());
    this.docker = new DockerEngine(vertx, options.dockerUrl());
    this.ledger = new ProcessLedger(options.stateDir());
  }

  /**
   * Ends the module processes that gateways now gone left running ({@code deploy.state-dir}, see
   * {@link Leftovers}), before this node starts its modules again; never fails.
   */
  public Future<Void> endLeftovers() {
    return vertx
        .executeBlocking(() -> Leftovers.end(options.stateDir()), false)
        .onFailure(e -> log.warn("leftover module processes not ended: {}", LogText.message(e)))
        .<Void>mapEmpty()
        .otherwiseEmpty();
  }

  /**
   * Starts a module on this node and registers it in discovery.
   *
   * @return the instance as registered: {@code {instId, srvcId, nodeId, url, descriptor}}
   */
  public Future<DeploymentDescriptor> deploy(DeploymentRequest request) {
    String instId = request.instId();
    if (instId != null && isRunning(instId)) {
      return Future.failedFuture(HttpError.badRequest("already deployed: " + instId));
    }
    if (request.srvcId() == null) {
      return Future.failedFuture(HttpError.badRequest("Needs srvcId"));
    }
    int port = ports.take();
    if (port == -1) {
      return Future.failedFuture(HttpError.badRequest("all ports in use"));
    }
    if (request.descriptor() == null) {
      ports.free(port);
      return Future.failedFuture(HttpError.badRequest("No LaunchDescriptor"));
    }
    String id = instId != null ? instId : UUID.randomUUID().toString();
    return unusedInstId(id)
        .compose(v -> deploy(request, id, port))
        .onFailure(e -> ports.free(port));
  }

  /** Fails as discovery would refuse the instance, before anything is started. */
  private Future<Void> unusedInstId(String instId) {
    return discovery
        .instances(null)
        .map(
            all -> {
              all.stream()
                  .filter(d -> d.instId().equals(instId))
                  .findFirst()
                  .ifPresent(
                      taken -> {
                        throw HttpError.badRequest(
                            "Duplicate instId "
                                + instId
                                + ": already an instance of "
                                + taken.srvcId()
                                + " (instance ids are unique across services)");
                      });
              return null;
            });
  }

  private Future<DeploymentDescriptor> deploy(DeploymentRequest request, String id, int port) {
    log.info("deploy {} instance {} on port {}", request.srvcId(), id, port);
    DeploymentDescriptor deployment =
        new DeploymentDescriptor(
            request.srvcId(),
            id,
            null,
            request.nodeId() != null ? request.nodeId() : nodeId,
            request.descriptor().json());
    return launch(deployment, port, discovery::add);
  }

  /**
   * Starts a module this node deployed before it stopped (Okapi's restart of the deployments it
   * stored), on a port free now, and points its instance in discovery there.
   *
   * @return the instance as registered now
   */
  public Future<DeploymentDescriptor> redeploy(DeploymentDescriptor stored) {
    int port = ports.take();
    if (port == -1) {
      return Future.failedFuture(HttpError.badRequest("all ports in use"));
    }
    return launch(stored, port, discovery::replace).onFailure(e -> ports.free(port));
  }

  /**
   * Starts the module with {@code /_/env} merged into its descriptor's environment, then registers
   * it at its URL; if it cannot be registered it is stopped again.
   */
  private Future<DeploymentDescriptor> launch(
      DeploymentDescriptor planned,
      int port,
      Function<DeploymentDescriptor, Future<DeploymentDescriptor>> registration) {
    return environment
        .list()
        .map(LaunchDescriptor.of(planned.descriptor())::withEnv)
        .compose(
            launch -> {
              DeploymentDescriptor deployment =
                  new DeploymentDescriptor(
                      planned.srvcId(),
                      planned.instId(),
                      "http://" + options.host() + ":" + port,
                      planned.nodeId(),
                      launch.json());
              return start(deployment, launch, port)
                  .compose(
                      handle ->
                          registration
                              .apply(deployment)
                              .recover(e -> handle.stop().transform(v -> Future.failedFuture(e)))
                              .map(
                                  registered -> {
                                    remember(new Running(registered, handle, port));
                                    return registered;
                                  }));
            });
  }

  private Future<ModuleHandle> start(
      DeploymentDescriptor deployment, LaunchDescriptor launch, int port) {
    ModuleHandle handle = handle(deployment.srvcId(), deployment.instId(), launch, port);
    return handle
        .start()
        .map(handle)
        .onFailure(
            e ->
                log.warn(
                    "deploying {} instance {} failed: {}",
                    deployment.srvcId(),
                    deployment.instId(),
                    LogText.message(e)));
  }

  private ModuleHandle handle(String srvcId, String instId, LaunchDescriptor launch, int port) {
    Map<String, String> env = launch.env();
    if (launch.isDocker()) {
      return new ModuleContainer(docker, readiness, srvcId, launch, port, env, options);
    }
    return new ModuleProcess(
        vertx,
        readiness,
        ledger,
        srvcId,
        instId,
        launch,
        port,
        env,
        options.waitIterations(launch));
  }

  /**
   * Stops an instance this node started and removes it from discovery.
   *
   * @return 404 {@code not found: ID} if this node runs no such instance
   */
  public Future<Void> undeploy(String instId) {
    Running instance = forget(instId);
    if (instance == null) {
      return Future.failedFuture(HttpError.notFound("not found: " + instId));
    }
    log.info("undeploy {} instance {}", instance.deployment().srvcId(), instId);
    return discovery
        .remove(instance.deployment().srvcId(), instId)
        .recover(e -> Future.succeededFuture())
        .compose(v -> stop(instance));
  }

  private Future<Void> stop(Running instance) {
    return instance.handle().stop().andThen(done -> ports.free(instance.port()));
  }

  /**
   * @return the instances this node started, in the order it started them
   */
  public synchronized List<DeploymentDescriptor> list() {
    return running.values().stream().map(Running::deployment).toList();
  }

  /**
   * @return the instance; 404 {@code not found: ID} if this node runs none of that id
   */
  public Future<DeploymentDescriptor> get(String instId) {
    synchronized (this) {
      Running instance = running.get(instId);
      if (instance != null) {
        return Future.succeededFuture(instance.deployment());
      }
    }
    return Future.failedFuture(HttpError.notFound("not found: " + instId));
  }

  /**
   * Stops every module this node started, as the node stops (Okapi's shutdown); their instances
   * stay in discovery when {@code keepRegistered} (started again when the node starts again), else
   * they are removed.
   */
  public Future<Void> stopAll(boolean keepRegistered) {
    List<Running> all;
    synchronized (this) {
      all = new ArrayList<>(running.values());
      running.clear();
    }
    return Future.join(
            all.stream()
                .map(
                    instance -> {
                      log.info(
                          "stopping {} instance {}",
                          instance.deployment().srvcId(),
                          instance.deployment().instId());
                      Future<Void> removed =
                          keepRegistered
                              ? Future.succeededFuture()
                              : discovery
                                  .remove(
                                      instance.deployment().srvcId(),
                                      instance.deployment().instId())
                                  .recover(e -> Future.succeededFuture());
                      return removed.compose(v -> stop(instance));
                    })
                .toList())
        .<Void>mapEmpty()
        .eventually(docker::close);
  }

  private synchronized boolean isRunning(String instId) {
    return running.containsKey(instId);
  }

  private void remember(Running instance) {
    synchronized (this) {
      running.put(instance.deployment().instId(), instance);
    }
    instance.handle().ended().onSuccess(v -> ended(instance));
  }

  /**
   * A module that ended by itself: reported by {@code /_/discovery/health} and left, as in Okapi,
   * or with {@code deploy.restart} started again on its port, its instance unchanged.
   */
  private void ended(Running instance) {
    DeploymentDescriptor deployment = instance.deployment();
    synchronized (this) {
      if (running.get(deployment.instId()) != instance) {
        return; // undeployed, or the node stops: it was stopped on purpose
      }
      if (!options.restart()) {
        log.warn(
            "{} instance {} on port {} ended by itself; left as it is (deploy.restart=false)",
            deployment.srvcId(),
            deployment.instId(),
            instance.port());
        return;
      }
    }
    log.warn(
        "{} instance {} on port {} ended by itself; starting it again (deploy.restart)",
        deployment.srvcId(),
        deployment.instId(),
        instance.port());
    start(deployment, LaunchDescriptor.of(deployment.descriptor()), instance.port())
        .onSuccess(
            handle -> {
              boolean current;
              synchronized (this) {
                current = running.get(deployment.instId()) == instance;
              }
              if (current) {
                remember(new Running(deployment, handle, instance.port()));
              } else {
                handle.stop();
              }
            });
  }

  private synchronized Running forget(String instId) {
    return running.remove(instId);
  }
}
