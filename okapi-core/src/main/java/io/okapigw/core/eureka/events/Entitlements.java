package io.okapigw.core.eureka.events;

import io.okapigw.core.eureka.EurekaCalls;
import io.okapigw.core.eureka.EurekaOptions;
import io.okapigw.core.eureka.ServiceTokens;
import io.okapigw.core.install.InstallOptions;
import io.okapigw.core.install.Installer;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.VersionFilter;
import io.okapigw.core.upstream.ModuleCall.Answer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Eureka tenant's routes from Eureka's own data, as the sidecars learn theirs: the applications
 * entitled to the tenant ({@code GET {eureka.entitlements-url}/entitlements/{tenant}/applications},
 * mgr-tenant-entitlements), their module descriptors (Okapi's format) registered, where their
 * modules run ({@code GET {eureka.applications-url}/applications/{id}/discovery}, mgr-applications)
 * registered as instances ({@link EurekaInstances}: a moved module's instance follows it), and the
 * modules enabled for the tenant without calling them (mgr-tenant-entitlements ran their {@code
 * _tenant} when it entitled them). Read by change: when a tenant becomes an Eureka tenant on this
 * node ({@link #tenantsChanged}), and on {@code {env}.entitlement}: {@code ENTITLE} and {@code
 * UPGRADE} read the tenant again, {@code REVOKE} too, and its module is disabled if it is no longer
 * entitled. The topic is read in one consumer group for the whole cluster: one node applies an
 * event. A tenant's reads run one at a time across the cluster, a burst of events is one read
 * ({@link TenantSyncs}), so the last read wins whatever the events' order. What is registered
 * already is left as it is. Besides, every tenant is read at start and every {@code
 * eureka.entitlements-refresh} (1 h), on the cluster's reader only ({@link ReaderRole}): a bound on
 * an event Kafka lost, not the way changes arrive (the sidecars read every 5 minutes, each its own
 * module's).
 */
public final class Entitlements implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Entitlements.class);
  private static final int LIMIT = 500;
  private static final Duration MAX_PAUSE = Duration.ofMinutes(5);

  private final Vertx vertx;
  private final EurekaOptions options;
  private final EurekaCalls entitlements;
  private final EurekaCalls applications;
  private final ServiceTokens tokens;
  private final Registry registry;
  private final Installer installer;
  private final Supplier<Set<String>> tenants;
  private final KafkaTopics kafka;
  private final EurekaInstances instances;
  private final TenantSyncs syncs;
  private final Set<String> known;
  private final ReaderRole role;
  private long timer = -1;

  private Entitlements(
      Vertx vertx,
      EurekaOptions options,
      EurekaCalls entitlements,
      EurekaCalls applications,
      ServiceTokens tokens,
      Registry registry,
      Installer installer,
      Supplier<Set<String>> tenants,
      ReaderRole role) {
    this.vertx = vertx;
    this.role = role;
    this.options = options;
    this.entitlements = entitlements;
    this.applications = applications;
    this.tokens = tokens;
    this.registry = registry;
    this.installer = installer;
    this.tenants = tenants;
    this.instances = new EurekaInstances(registry);
    this.syncs =
        new TenantSyncs(
            vertx,
            vertx.getOrCreateContext(),
            this::sync,
            min(options.entitlementsRefresh(), MAX_PAUSE));
    this.known = java.util.concurrent.ConcurrentHashMap.newKeySet();
    this.known.addAll(tenants.get());
    this.kafka =
        options.kafka() == null
            ? null
            : new KafkaTopics(
                options,
                Pattern.compile(Pattern.quote(options.env() + ".entitlement")),
                "okapigw-entitlement",
                options.entitlementsRefresh(),
                (topic, value) -> accept(new JsonObject(value)));
  }

  /**
   * Starts following Eureka's entitlements, if {@code eureka.entitlements-url} and {@code
   * eureka.applications-url} are set.
   *
   * @param entitlements calls mgr-tenant-entitlements; applications: mgr-applications
   * @param tenants the Eureka tenants now
   * @return the follower, or null if it does not run
   */
  public static Entitlements start(
      Vertx vertx,
      EurekaOptions options,
      EurekaCalls entitlements,
      EurekaCalls applications,
      ServiceTokens tokens,
      Registry registry,
      Installer installer,
      Supplier<Set<String>> tenants,
      ReaderRole role) {
    if (entitlements == null || applications == null) {
      return null;
    }
    Entitlements sync =
        new Entitlements(
            vertx, options, entitlements, applications, tokens, registry, installer, tenants, role);
    if (sync.kafka != null) {
      sync.kafka.start();
    }
    sync.schedule(0);
    return sync;
  }

  private void schedule(long delayMillis) {
    timer =
        vertx.setTimer(
            Math.max(1, delayMillis),
            id -> sweep().onComplete(done -> schedule(options.entitlementsRefresh().toMillis())));
  }

  /**
   * Every tenant read again, on the cluster's reader only: at start (what changed while no node
   * ran) and every {@code eureka.entitlements-refresh}, a bound on an event Kafka lost; the
   * registry and the tenants' modules it writes are the cluster's.
   */
  private Future<Void> sweep() {
    return role.held().compose(held -> held ? syncAll() : Future.succeededFuture());
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) < 0 ? a : b;
  }

  /**
   * Every Eureka tenant, one after another (a refresh of hundreds is not hundreds of reads at
   * once).
   */
  private Future<Void> syncAll() {
    Set<String> now = tenants.get();
    known.addAll(now);
    Future<Void> all = Future.succeededFuture();
    for (String tenant : now) {
      all = all.compose(v -> sync(tenant).otherwise(e -> null));
    }
    return all;
  }

  /**
   * The registry changed on this node: a tenant that became an Eureka tenant (created, or its
   * {@code auth} changed) is read at once, not at the next refresh. Any thread.
   */
  public void tenantsChanged() {
    Set<String> now = tenants.get();
    known.retainAll(now); // a tenant deleted and posted again is read again
    for (String tenant : now) {
      if (known.add(tenant)) {
        sync(tenant);
      }
    }
  }

  /** An event as Kafka's thread hands it. */
  Future<Void> accept(JsonObject event) {
    return handle(event);
  }

  /**
   * Applies one event of {@code {env}.entitlement}: {@code {moduleId, tenantName, type}}.
   *
   * @return completes once a read of the tenant begun after the event has been applied
   */
  Future<Void> handle(JsonObject event) {
    String tenant = event.getString("tenantName");
    String moduleId = event.getString("moduleId");
    if (tenant == null || !tenants.get().contains(tenant)) {
      return Future.succeededFuture();
    }
    boolean revoke = "REVOKE".equals(event.getString("type")) && moduleId != null;
    return syncs.request(tenant, revoke ? Set.of(moduleId) : Set.of());
  }

  /**
   * Reads the tenant's entitlements again, after any read running now.
   *
   * @return completes when that read has been applied; failed if it failed (it is tried again)
   */
  public Future<Void> sync(String tenant) {
    return syncs.request(tenant, Set.of());
  }

  /**
   * Registers the tenant's entitled applications' modules and instances, enables those not enabled
   * yet and disables the revoked ones no longer entitled, calling none of them.
   */
  private Future<Void> sync(String tenant, Set<String> revoked) {
    if (!tenants.get().contains(tenant)) {
      return Future.succeededFuture();
    }
    return token()
        .compose(
            token ->
                entitlements
                    .get("/entitlements/" + tenant + "/applications?limit=" + LIMIT, token)
                    .map(answer -> json(answer, "the applications entitled to " + tenant))
                    .compose(
                        apps ->
                            register(
                                apps.getJsonArray("applicationDescriptors", new JsonArray()),
                                token))
                    .compose(
                        ids -> enable(tenant, ids).compose(v -> disable(tenant, ids, revoked))))
        .onSuccess(
            v -> log.info("tenant {}: modules of its entitled applications in place", tenant))
        .onFailure(e -> log.warn("tenant {}: entitlements not read: {}", tenant, e.getMessage()));
  }

  private Future<String> token() {
    return tokens.adminAvailable() ? tokens.adminToken() : Future.succeededFuture(null);
  }

  /** Registers the applications' module descriptors and instances; the modules' ids. */
  private Future<List<String>> register(JsonArray apps, String token) {
    List<ModuleDescriptor> descriptors = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    List<String> appIds = new ArrayList<>();
    for (Object a : apps) {
      JsonObject app = (JsonObject) a;
      appIds.add(app.getString("id"));
      for (Object d : app.getJsonArray("moduleDescriptors", new JsonArray())) {
        ModuleDescriptor descriptor = ModuleDescriptor.fromPosted((JsonObject) d);
        descriptors.add(descriptor);
        ids.add(descriptor.id());
      }
    }
    return registry
        .modules()
        .compose(
            known -> {
              Set<String> have = new HashSet<>();
              known.forEach(m -> have.add(m.id()));
              List<ModuleDescriptor> missing =
                  descriptors.stream().filter(m -> !have.contains(m.id())).toList();
              return missing.isEmpty()
                  ? Future.succeededFuture()
                  : registry.addModules(missing, false, VersionFilter.ALL).mapEmpty();
            })
        .compose(v -> instances(appIds, token))
        .map(v -> ids);
  }

  private Future<Void> instances(List<String> appIds, String token) {
    Future<Void> all = Future.succeededFuture();
    for (String appId : appIds) {
      all = all.compose(v -> instances(appId, token));
    }
    return all;
  }

  private Future<Void> instances(String appId, String token) {
    return applications
        .get("/applications/" + appId + "/discovery?limit=" + LIMIT, token)
        .map(answer -> json(answer, "the discovery of application " + appId))
        .compose(
            found -> {
              Future<Void> added = Future.succeededFuture();
              for (Object d : found.getJsonArray("discovery", new JsonArray())) {
                JsonObject module = (JsonObject) d;
                added = added.compose(v -> instance(module));
              }
              return added;
            });
  }

  private Future<Void> instance(JsonObject module) {
    return instances.place(module.getString("id"), module.getString("location")).mapEmpty();
  }

  private Future<Void> enable(String tenant, List<String> ids) {
    return registry
        .tenantModules()
        .enabled(tenant)
        .compose(
            enabled -> {
              Set<String> have = new HashSet<>();
              enabled.forEach(m -> have.add(m.id()));
              JsonArray request = new JsonArray();
              ids.stream()
                  .filter(id -> !have.contains(id))
                  .forEach(
                      id -> request.add(new JsonObject().put("id", id).put("action", "enable")));
              return request.isEmpty()
                  ? Future.succeededFuture()
                  : installer.install(tenant, request, withoutCalls()).mapEmpty();
            });
  }

  /** The revoked modules still enabled but no longer among {@code entitled}, disabled. */
  private Future<Void> disable(String tenant, List<String> entitled, Set<String> revoked) {
    if (revoked.isEmpty()) {
      return Future.succeededFuture();
    }
    return registry
        .tenantModules()
        .enabled(tenant)
        .compose(
            enabled -> {
              Future<Void> all = Future.succeededFuture();
              for (ModuleDescriptor m : enabled) {
                if (revoked.contains(m.id()) && !entitled.contains(m.id())) {
                  all = all.compose(v -> installer.disable(tenant, m.id(), withoutCalls()));
                }
              }
              return all;
            });
  }

  private static InstallOptions withoutCalls() {
    InstallOptions d = InstallOptions.DEFAULTS;
    return new InstallOptions(
        false,
        d.preRelease(),
        d.npmSnapshot(),
        false,
        null,
        "false",
        false,
        false,
        false,
        false,
        1,
        false);
  }

  private static JsonObject json(Answer answer, String what) {
    if (answer.status() != 200) {
      throw new IllegalStateException("answered " + answer.status() + " for " + what);
    }
    return new JsonObject(answer.body());
  }

  @Override
  public void close() {
    vertx.cancelTimer(timer);
    syncs.close();
    if (kafka != null) {
      kafka.close();
    }
  }
}
