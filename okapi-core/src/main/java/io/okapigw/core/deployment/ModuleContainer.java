package io.okapigw.core.deployment;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.LogText;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A module run as a Docker container, as Okapi runs one: the image pulled first unless {@code
 * dockerPull: false} (from each of {@code dockerRegistries} in turn, with its credentials; a failed
 * pull is not an error, the image may be there already), the image's first {@code EXPOSE}d port
 * published on the module's port, {@code dockerCMD}, the environment, {@code dockerArgs} merged in
 * ({@code %p} and {@code %c} in its values replaced by the port and the container host), the
 * container's output logged line by line prefixed with the module id (control characters escaped).
 * Undeployed, the container is stopped and removed.
 */
final class ModuleContainer implements ModuleHandle {

  private static final Logger log = LoggerFactory.getLogger(ModuleContainer.class);

  private static final List<String> AUTH_FIELDS =
      List.of("username", "password", "email", "serveraddress", "identitytoken");

  private final DockerEngine engine;
  private final Readiness readiness;
  private final String id;
  private final LaunchDescriptor descriptor;
  private final int port;
  private final Map<String, String> env;
  private final DeploymentOptions options;
  private String image;
  private volatile String container;
  private volatile boolean running;
  private final Promise<Void> ended = Promise.promise();

  ModuleContainer(
      DockerEngine engine,
      Readiness readiness,
      String id,
      LaunchDescriptor descriptor,
      int port,
      Map<String, String> env,
      DeploymentOptions options) {
    this.engine = engine;
    this.readiness = readiness;
    this.id = id;
    this.descriptor = descriptor;
    this.port = port;
    this.env = env;
    this.options = options;
    this.image = descriptor.dockerImage();
  }

  @Override
  public Future<Void> start() {
    Future<Void> pulled =
        descriptor.dockerPull()
            ? Future.succeededFuture().compose(v -> pull()).recover(e -> Future.succeededFuture())
            : Future.succeededFuture();
    return pulled
        .compose(v -> image())
        .map(this::exposedPort)
        .compose(exposed -> engine.create(createDoc(exposed)))
        .compose(
            created -> {
              container = created;
              log.info("{}: container {} created from image {}", id, shortId(), image);
              return engine.start(created);
            })
        .compose(
            v -> {
              running = true;
              return engine.follow(
                  container,
                  line -> log.info("{} {}", id, LogText.escape(line)),
                  this::outputEnded);
            })
        .compose(
            v ->
                readiness.await(
                    id,
                    options.containerHost(),
                    port,
                    options.waitIterations(descriptor),
                    () -> running))
        .recover(e -> stop().transform(v -> Future.failedFuture(failure(e))));
  }

  private void outputEnded() {
    if (running) {
      running = false;
      log.info("{}: the output of container {} ended", id, shortId());
      ended.tryComplete();
    }
  }

  @Override
  public Future<Void> ended() {
    return ended.future();
  }

  private static Throwable failure(Throwable e) {
    return e instanceof HttpError ? e : HttpError.badRequest(e.getMessage());
  }

  /** Pulls the image from each registry in turn until one pull succeeds (Okapi's order). */
  private Future<Void> pull() {
    JsonArray registries = options.dockerRegistries();
    if (registries == null) {
      log.info("{}: pull image {}", id, image);
      return engine.pull(image, null);
    }
    Future<Void> chain = Future.failedFuture(noRegistries());
    for (Object each : registries) {
      if (each instanceof JsonObject registry) {
        chain =
            chain.recover(
                e -> {
                  String named = prefix(registry) + image;
                  log.info("{}: pull image {}", id, named);
                  return engine.pull(named, auth(registry));
                });
      }
    }
    return chain.onFailure(e -> log.info("{}: pull of {} failed: {}", id, image, e.getMessage()));
  }

  /** The image found locally (with each registry's prefix in turn, as Okapi looks it up). */
  private Future<JsonObject> image() {
    JsonArray registries = options.dockerRegistries();
    if (registries == null) {
      return engine.inspectImage(image);
    }
    Future<JsonObject> chain = Future.failedFuture(noRegistries());
    String plain = image;
    for (Object each : registries) {
      if (each instanceof JsonObject registry) {
        String named = prefix(registry) + plain;
        chain = chain.recover(e -> engine.inspectImage(named).onSuccess(found -> image = named));
      }
    }
    return chain;
  }

  private static HttpError noRegistries() {
    return HttpError.badRequest(
        "dockerRegistries=[] contains no registry and disables docker pull. For unauthenticated"
            + " pull from DockerHub use [ {} ].");
  }

  private static String prefix(JsonObject registry) {
    String prefix = registry.getValue("registry") instanceof String r ? r : "";
    return prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
  }

  private static JsonObject auth(JsonObject registry) {
    JsonObject auth = new JsonObject();
    AUTH_FIELDS.forEach(
        f -> {
          if (registry.getValue(f) instanceof String v) {
            auth.put(f, v);
          }
        });
    return auth;
  }

  /** The image's first exposed port, with Okapi's messages for an image that exposes none. */
  private int exposedPort(JsonObject inspected) {
    JsonObject config = inspected.getJsonObject("Config");
    if (config == null) {
      throw HttpError.badRequest("Missing Config in image");
    }
    JsonObject exposed = config.getJsonObject("ExposedPorts");
    if (exposed == null || exposed.isEmpty()) {
      throw HttpError.badRequest("Missing EXPOSE in image");
    }
    return Integer.parseInt(exposed.fieldNames().iterator().next().split("/")[0]);
  }

  /** The container's creation as Okapi writes it. */
  JsonObject createDoc(int exposedPort) {
    JsonObject doc =
        new JsonObject()
            .put("AttachStdin", false)
            .put("AttachStdout", true)
            .put("AttachStderr", true)
            .put("StopSignal", "SIGTERM");
    if (!env.isEmpty()) {
      JsonArray vars = new JsonArray();
      env.forEach((k, v) -> vars.add(k + "=" + v));
      doc.put("env", vars);
    }
    doc.put("Image", image);
    JsonObject bindings =
        new JsonObject()
            .put(
                exposedPort + "/tcp",
                new JsonArray().add(new JsonObject().put("HostPort", Integer.toString(port))));
    doc.put(
        "HostConfig", new JsonObject().put("PortBindings", bindings).put("PublishAllPorts", false));
    List<String> cmd = descriptor.dockerCmd();
    if (!cmd.isEmpty()) {
      doc.put("Cmd", new JsonArray(List.copyOf(cmd)));
    }
    JsonObject args = descriptor.dockerArgs();
    if (args != null) {
      doc.mergeIn(
          (JsonObject) Percent.replace(args, Integer.toString(port), options.containerHost()));
    }
    return doc;
  }

  @Override
  public Future<Void> stop() {
    String id0 = container;
    if (id0 == null) {
      return Future.succeededFuture();
    }
    container = null;
    running = false;
    return engine
        .stop(id0)
        .recover(e -> Future.succeededFuture())
        .compose(v -> engine.remove(id0))
        .onSuccess(v -> log.info("{}: container {} stopped and removed", id, shortOf(id0)))
        .recover(
            e -> {
              log.warn("{}: container {} not removed: {}", id, shortOf(id0), e.getMessage());
              return Future.succeededFuture();
            });
  }

  private String shortId() {
    return shortOf(container);
  }

  private static String shortOf(String containerId) {
    return containerId == null ? "" : containerId.substring(0, Math.min(12, containerId.length()));
  }
}
