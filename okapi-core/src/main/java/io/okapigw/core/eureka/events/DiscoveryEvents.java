package io.okapigw.core.eureka.events;

import io.okapigw.core.eureka.EurekaCalls;
import io.okapigw.core.eureka.EurekaOptions;
import io.okapigw.core.eureka.ServiceTokens;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * mgr-applications' {@code {env}.discovery} topic, as the sidecar reads it ({@code
 * DiscoveryConsumer}): an event {@code {"moduleId": "mod-foo-1.2.3"}} says that module's discovery
 * was created, changed or deleted; the sidecar then reads it again ({@code GET
 * /modules/{id}/discovery}) and routes to the new location. Here: for a module registered in the
 * gateway, its discovery is read again from {@code eureka.applications-url} and its Eureka instance
 * put where it says ({@link EurekaInstances}), or removed if mgr-applications has none (404), at
 * once rather than at the next entitlement read. An event of a module the gateway does not know is
 * skipped, as the sidecar skips modules it does not route to, and so is one of a module with an
 * instance registered through the admin API (whoever registered it decides where it runs). Events
 * older than {@code eureka.entitlements-refresh} are skipped (the entitlements read at start covers
 * them). Read by one node of the cluster (one consumer group): the instance is the cluster's.
 */
public final class DiscoveryEvents implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DiscoveryEvents.class);

  private final String env;
  private final EurekaCalls applications;
  private final ServiceTokens tokens;
  private final Registry registry;
  private final EurekaInstances instances;
  private final KafkaTopics kafka;

  private DiscoveryEvents(
      Vertx vertx,
      EurekaOptions options,
      EurekaCalls applications,
      ServiceTokens tokens,
      Registry registry) {
    this.env = options.env();
    this.applications = applications;
    this.tokens = tokens;
    this.registry = registry;
    this.instances = new EurekaInstances(registry);
    this.kafka =
        new KafkaTopics(
            options,
            Pattern.compile(Pattern.quote(options.env() + ".discovery")),
            "okapigw-discovery",
            options.entitlementsRefresh(),
            (topic, value) -> vertx.runOnContext(v -> handle(new JsonObject(value))));
  }

  /**
   * Follows {@code {env}.discovery}.
   *
   * @param applications calls mgr-applications
   */
  public static DiscoveryEvents start(
      Vertx vertx,
      EurekaOptions options,
      EurekaCalls applications,
      ServiceTokens tokens,
      Registry registry) {
    DiscoveryEvents events = create(vertx, options, applications, tokens, registry);
    events.kafka.start();
    log.info("following Kafka topic {}.discovery at {}", options.env(), options.kafka());
    return events;
  }

  /** As {@link #start}, not yet reading the topic (for tests: {@link #handle}). */
  static DiscoveryEvents create(
      Vertx vertx,
      EurekaOptions options,
      EurekaCalls applications,
      ServiceTokens tokens,
      Registry registry) {
    return new DiscoveryEvents(vertx, options, applications, tokens, registry);
  }

  /** Applies one event: {@code {moduleId}}. */
  Future<Void> handle(JsonObject event) {
    String moduleId = event.getString("moduleId");
    if (moduleId == null || moduleId.isEmpty()) {
      log.warn("{}.discovery: an event without moduleId skipped", env);
      return Future.succeededFuture();
    }
    return Future.all(registry.modules(), instances.byHand(moduleId))
        .compose(
            found ->
                found.<java.util.List<ModuleDescriptor>>resultAt(0).stream()
                            .map(ModuleDescriptor::id)
                            .anyMatch(moduleId::equals)
                        && !found.<Boolean>resultAt(1)
                    ? reread(moduleId)
                    : Future.succeededFuture())
        .onFailure(e -> log.warn("discovery of {} not read again: {}", moduleId, e.getMessage()));
  }

  private Future<Void> reread(String moduleId) {
    return (tokens.adminAvailable() ? tokens.adminToken() : Future.<String>succeededFuture())
        .compose(
            token ->
                applications.get(
                    "/modules/"
                        + URLEncoder.encode(moduleId, StandardCharsets.UTF_8)
                        + "/discovery",
                    token))
        .compose(
            answer -> {
              if (answer.status() == 404) {
                return instances
                    .removeAll(moduleId)
                    .onSuccess(
                        gone -> {
                          if (gone) {
                            log.info("{}: discovery deleted, its instance removed", moduleId);
                          }
                        });
              }
              if (answer.status() != 200) {
                throw new IllegalStateException(
                    "mgr-applications answered " + answer.status() + " for its discovery");
              }
              String location = new JsonObject(answer.body()).getString("location");
              return instances
                  .place(moduleId, location)
                  .onSuccess(
                      changed -> {
                        if (changed) {
                          log.info("{}: instance now at {}", moduleId, location);
                        }
                      });
            })
        .mapEmpty();
  }

  @Override
  public void close() {
    kafka.close();
  }
}
