package io.okapigw.core.eureka.events;

import io.okapigw.cache.AuthCache;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.eureka.EurekaCalls;
import io.okapigw.core.eureka.EurekaOptions;
import io.okapigw.core.eureka.ServiceTokens;
import io.okapigw.core.http.FailureLog;
import io.okapigw.core.http.FailureLog.Kind;
import io.okapigw.core.upstream.ModuleCall.Answer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What FOLIO's Eureka never publishes: a permission revoked. mod-roles-keycloak changes Keycloak
 * through its admin API (roles, their role mappings, policies, scope permissions) and tells nobody;
 * the sidecar keeps a revoked permission until the token expires. Keycloak records each such change
 * as an admin event when the realm has them on; every {@code eureka.admin-events-interval} the
 * cluster's reader ({@link ReaderRole}: one node for the whole cluster, handed over when it dies or
 * leaves) reads each Eureka tenant's new ones ({@code GET
 * /admin/realms/{tenant}/admin-events?dateFrom=}) from where the cluster last read them ({@link
 * AdminEventCursors}) and drops what they touch on every node ({@link AdminEventDrops}): a change
 * of a user's role mappings, groups or the user, that user's decisions (no scan; the user's FOLIO
 * id read from the realm once); a change of roles, groups, clients, authorization resources,
 * scopes, policies or permissions, the tenant's. So an idle cluster makes one call per tenant per
 * interval whatever its number of nodes. A realm without admin events is named in the log once a
 * minute: there, a revoked permission lasts until {@code auth.cache.ttl}.
 */
public final class AdminEvents {

  private static final Logger log = LoggerFactory.getLogger(AdminEvents.class);
  private static final Pattern USER_PATH = Pattern.compile("users/([^/]+)(/.*)?");
  private static final Set<String> USER_TYPES =
      Set.of("REALM_ROLE_MAPPING", "CLIENT_ROLE_MAPPING", "GROUP_MEMBERSHIP", "USER");
  private static final Set<String> TENANT_TYPES =
      Set.of(
          "REALM_ROLE",
          "CLIENT_ROLE",
          "GROUP",
          "CLIENT",
          "REALM_SCOPE_MAPPING",
          "CLIENT_SCOPE_MAPPING",
          "AUTHORIZATION_RESOURCE_SERVER",
          "AUTHORIZATION_RESOURCE",
          "AUTHORIZATION_SCOPE",
          "AUTHORIZATION_POLICY");
  private static final int PAGE = 100;
  private static final long RECHECK_NANOS = Duration.ofMinutes(1).toNanos();
  private static final Duration FAILURE_INTERVAL = Duration.ofMinutes(1);

  private final Vertx vertx;
  private final EurekaCalls keycloak;
  private final ServiceTokens tokens;
  private final Supplier<Set<String>> tenants;
  private final long intervalMillis;
  private final ReaderRole role;
  private final AdminEventDrops drops;
  private final AdminEventCursors cursors;
  private final LongSupplier nanoTime;
  private final Map<String, Long> offUntil = new ConcurrentHashMap<>();
  private final Map<String, String> folioIds = new ConcurrentHashMap<>();
  private final FailureLog failures;
  private volatile boolean running = true;
  private long timer = -1;

  private AdminEvents(
      Vertx vertx,
      EurekaCalls keycloak,
      ServiceTokens tokens,
      Supplier<Set<String>> tenants,
      EurekaOptions options,
      ReaderRole role,
      AdminEventDrops drops,
      LongSupplier nanoTime) {
    this.failures = FailureLog.create(log, 1, FAILURE_INTERVAL, nanoTime);
    this.vertx = vertx;
    this.keycloak = keycloak;
    this.tokens = tokens;
    this.tenants = tenants;
    this.intervalMillis = options.adminEventsInterval().toMillis();
    this.role = role;
    this.drops = drops;
    this.cursors = new AdminEventCursors(vertx);
    this.nanoTime = nanoTime;
  }

  /**
   * Applies here what the cluster's reader sends (on every node where Eureka is on), and reads the
   * admin events when this node holds the reader role, if the interval is not zero and the gateway
   * has an admin client.
   *
   * @param tenants the Eureka tenants now
   * @param role who reads for the cluster
   * @return the follower, once it answers the reader's messages
   */
  public static Future<AdminEvents> start(
      Vertx vertx,
      AuthCache cache,
      EurekaCalls keycloak,
      ServiceTokens tokens,
      Supplier<Set<String>> tenants,
      EurekaOptions options,
      ClusterBus bus,
      ReaderRole role) {
    return AdminEventDrops.start(vertx, cache, bus)
        .map(
            drops -> {
              AdminEvents events =
                  new AdminEvents(
                      vertx, keycloak, tokens, tenants, options, role, drops, System::nanoTime);
              if (options.adminEventsInterval().isZero() || !options.adminCalls()) {
                log.warn(
                    "Keycloak's admin events are not read by this node ({}): where no node reads"
                        + " them, a permission revoked in Keycloak lasts in the decision cache"
                        + " until auth.cache.ttl",
                    options.adminCalls()
                        ? "eureka.admin-events-interval is 0"
                        : "no eureka.admin-client-secret");
              } else {
                events.schedule();
              }
              return events;
            });
  }

  /**
   * As {@link #start}, not polling (tests call {@link #pollAll}), on {@code nanoTime}.
   *
   * @return the follower, once it answers the reader's messages
   */
  static Future<AdminEvents> create(
      Vertx vertx,
      AuthCache cache,
      EurekaCalls keycloak,
      ServiceTokens tokens,
      Supplier<Set<String>> tenants,
      EurekaOptions options,
      ClusterBus bus,
      ReaderRole role,
      LongSupplier nanoTime) {
    return AdminEventDrops.start(vertx, cache, bus)
        .map(
            drops ->
                new AdminEvents(vertx, keycloak, tokens, tenants, options, role, drops, nanoTime));
  }

  private void schedule() {
    if (running) {
      timer = vertx.setTimer(intervalMillis, id -> pollAll().onComplete(done -> schedule()));
    }
  }

  /**
   * One round: nothing unless this node is the cluster's reader; then each Eureka tenant's new
   * events, one tenant after another. A realm that cannot be read is logged once a minute (with how
   * many failures were not), not once a round.
   */
  Future<Void> pollAll() {
    return role.held()
        .compose(held -> held ? readAll() : Future.succeededFuture())
        .otherwise(
            e -> {
              failures.log(Kind.UPSTREAM, "admin events not read: " + e.getMessage());
              return null;
            });
  }

  private Future<Void> readAll() {
    Future<Void> round = Future.succeededFuture();
    for (String tenant : tenants.get()) {
      round =
          round.compose(
              v ->
                  poll(tenant)
                      .otherwise(
                          e -> {
                            failures.log(
                                Kind.UPSTREAM,
                                "admin events of realm " + tenant + " not read: " + e.getMessage());
                            return null;
                          }));
    }
    return round;
  }

  private Future<Void> poll(String tenant) {
    Long off = offUntil.get(tenant);
    if (off != null && nanoTime.getAsLong() - off < 0) {
      return Future.succeededFuture();
    }
    Future<String> admin = tokens.adminToken();
    return admin
        .compose(a -> cursors.get(tenant))
        .compose(
            cursor ->
                cursor == null
                    ? begin(tenant, admin.result())
                    : readFrom(tenant, cursor, admin.result()));
  }

  /** The new events read and applied; the cursor kept in the cluster if it moved. */
  private Future<Void> readFrom(String tenant, AdminEventCursors.Cursor cursor, String admin) {
    JsonArray read = new JsonArray();
    return read(tenant, cursor, admin, 0, read)
        .compose(
            v -> cursor.advance(read) ? cursors.put(tenant, cursor) : Future.succeededFuture());
  }

  /** First read of a realm in the cluster: are admin events on, and where do they stand now. */
  private Future<Void> begin(String tenant, String admin) {
    return keycloak
        .get("/admin/realms/" + tenant + "/events/config", admin)
        .compose(
            answer -> {
              JsonObject config = json(answer, "events config").getJsonObject("value");
              if (!Boolean.TRUE.equals(config.getBoolean("adminEventsEnabled"))) {
                offUntil.put(tenant, nanoTime.getAsLong() + RECHECK_NANOS);
                log.warn(
                    "realm {} records no admin events: a permission revoked there lasts in the"
                        + " decision cache until auth.cache.ttl (enable them: PUT"
                        + " /admin/realms/{}/events/config {{\"adminEventsEnabled\": true}})",
                    tenant,
                    tenant);
                return Future.succeededFuture();
              }
              return keycloak
                  .get("/admin/realms/" + tenant + "/admin-events?first=0&max=1", admin)
                  .compose(
                      latest -> {
                        JsonArray events = json(latest, "admin events").getJsonArray("value");
                        AdminEventCursors.Cursor cursor =
                            new AdminEventCursors.Cursor(
                                events.isEmpty() ? 0 : events.getJsonObject(0).getLong("time"));
                        cursor.advance(events);
                        return cursors.put(tenant, cursor);
                      });
            });
  }

  /**
   * Reads the events since the cursor, newest first, page by page, and applies the new ones; {@code
   * read} gathers every page's.
   */
  private Future<Void> read(
      String tenant, AdminEventCursors.Cursor cursor, String admin, int first, JsonArray read) {
    String path =
        "/admin/realms/"
            + tenant
            + "/admin-events?dateFrom="
            + cursor.time
            + "&first="
            + first
            + "&max="
            + PAGE;
    return keycloak
        .get(path, admin)
        .compose(
            answer -> {
              JsonArray events = json(answer, "admin events").getJsonArray("value");
              Future<Void> applied = Future.succeededFuture();
              for (Object e : events) {
                JsonObject event = (JsonObject) e;
                read.add(event);
                if (cursor.isNew(event)) {
                  applied = applied.compose(v -> apply(tenant, event, admin));
                }
              }
              return applied.compose(
                  v -> {
                    return events.size() == PAGE
                        ? read(tenant, cursor, admin, first + PAGE, read)
                        : Future.succeededFuture();
                  });
            });
  }

  private Future<Void> apply(String tenant, JsonObject event, String admin) {
    String type = event.getString("resourceType", "");
    String resourcePath = event.getString("resourcePath", "");
    Matcher user = USER_PATH.matcher(resourcePath);
    if (USER_TYPES.contains(type) && user.matches()) {
      if ("USER".equals(type) && "CREATE".equals(event.getString("operationType"))) {
        return Future.succeededFuture();
      }
      return folioId(tenant, user.group(1), admin, event)
          .compose(
              userId -> {
                if (userId == null) {
                  return invalidateTenant(tenant, type);
                }
                log.info(
                    "{} {} in realm {}: the user's decisions revoked on every node",
                    type,
                    event.getString("operationType"),
                    tenant);
                return drops.user(tenant, userId);
              });
    }
    if (TENANT_TYPES.contains(type)) {
      return invalidateTenant(tenant, type);
    }
    return Future.succeededFuture();
  }

  private Future<Void> invalidateTenant(String tenant, String type) {
    log.info("{} changed in realm {}: the tenant's decisions dropped on every node", type, tenant);
    return drops.tenant(tenant);
  }

  /**
   * @return the FOLIO user id ({@code user_id} attribute) of a Keycloak user, read once; from the
   *     event's representation for a deleted user; null if not known
   */
  private Future<String> folioId(String tenant, String keycloakId, String admin, JsonObject event) {
    String known = folioIds.get(tenant + "/" + keycloakId);
    if (known != null) {
      return Future.succeededFuture(known);
    }
    return keycloak
        .get("/admin/realms/" + tenant + "/users/" + keycloakId, admin)
        .map(
            answer -> {
              if (answer.status() != 200) {
                return null;
              }
              JsonArray ids =
                  new JsonObject(answer.body())
                      .getJsonObject("attributes", new JsonObject())
                      .getJsonArray("user_id");
              String id = ids == null || ids.isEmpty() ? null : ids.getString(0);
              if (id != null) {
                folioIds.put(tenant + "/" + keycloakId, id);
              }
              return id;
            });
  }

  /** The answer's JSON under {@code value}; else fails naming what was read. */
  private static JsonObject json(Answer answer, String what) {
    if (answer.status() != 200) {
      throw new IllegalStateException("Keycloak answered " + answer.status() + " for " + what);
    }
    String body = answer.body().toString().trim();
    return new JsonObject()
        .put("value", body.startsWith("[") ? new JsonArray(body) : new JsonObject(body));
  }

  /** Stops reading (the reader role is left by {@link ReaderRole#leave}). */
  public void stop() {
    running = false;
    vertx.cancelTimer(timer);
  }
}
