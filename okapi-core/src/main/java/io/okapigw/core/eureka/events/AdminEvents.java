package io.okapigw.core.eureka.events;

import io.okapigw.cache.AuthCache;
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
import java.util.HashSet;
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
 * as an admin event when the realm has them on; every {@code eureka.admin-events-interval} this
 * reads each Eureka tenant's new ones ({@code GET /admin/realms/{tenant}/admin-events?dateFrom=})
 * and drops what they touch: a change of a user's role mappings, groups or the user, that user's
 * decisions ({@link AuthCache#revokeUser}, no scan; the user's FOLIO id read from the realm once);
 * a change of roles, groups, clients, authorization resources, scopes, policies or permissions, the
 * tenant's. Every node reads them itself. A realm without admin events is named in the log once a
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
  private static final long RECHECK_MILLIS = Duration.ofMinutes(1).toMillis();
  private static final Duration FAILURE_INTERVAL = Duration.ofMinutes(1);

  /** Where a realm's reading stands: the newest event time read and the ids read at it. */
  private static final class Cursor {
    long time = -1;
    Set<String> seenAtTime = new HashSet<>();
    long offUntil;
  }

  private final Vertx vertx;
  private final AuthCache cache;
  private final EurekaCalls keycloak;
  private final ServiceTokens tokens;
  private final Supplier<Set<String>> tenants;
  private final long intervalMillis;
  private final Map<String, Cursor> cursors = new ConcurrentHashMap<>();
  private final Map<String, String> folioIds = new ConcurrentHashMap<>();
  private final FailureLog failures;
  private volatile boolean running = true;
  private long timer = -1;

  private AdminEvents(
      Vertx vertx,
      AuthCache cache,
      EurekaCalls keycloak,
      ServiceTokens tokens,
      Supplier<Set<String>> tenants,
      EurekaOptions options,
      LongSupplier nanoTime) {
    this.failures = FailureLog.create(log, 1, FAILURE_INTERVAL, nanoTime);
    this.vertx = vertx;
    this.cache = cache;
    this.keycloak = keycloak;
    this.tokens = tokens;
    this.tenants = tenants;
    this.intervalMillis = options.adminEventsInterval().toMillis();
  }

  /**
   * Starts reading, if the interval is not zero and the gateway has an admin client.
   *
   * @param tenants the Eureka tenants now
   * @return the reader, or null if it does not run
   */
  public static AdminEvents start(
      Vertx vertx,
      AuthCache cache,
      EurekaCalls keycloak,
      ServiceTokens tokens,
      Supplier<Set<String>> tenants,
      EurekaOptions options) {
    if (options.adminEventsInterval().isZero() || !options.adminCalls()) {
      log.warn(
          "Keycloak's admin events are not read ({}): a permission revoked in Keycloak lasts in"
              + " the decision cache until auth.cache.ttl",
          options.adminCalls()
              ? "eureka.admin-events-interval is 0"
              : "no eureka.admin-client-secret");
      return null;
    }
    AdminEvents events = create(vertx, cache, keycloak, tokens, tenants, options, System::nanoTime);
    events.schedule();
    return events;
  }

  /** As {@link #start}, not polling (tests call {@link #pollAll}), on {@code nanoTime}. */
  static AdminEvents create(
      Vertx vertx,
      AuthCache cache,
      EurekaCalls keycloak,
      ServiceTokens tokens,
      Supplier<Set<String>> tenants,
      EurekaOptions options,
      LongSupplier nanoTime) {
    return new AdminEvents(vertx, cache, keycloak, tokens, tenants, options, nanoTime);
  }

  private void schedule() {
    if (running) {
      timer = vertx.setTimer(intervalMillis, id -> pollAll().onComplete(done -> schedule()));
    }
  }

  /**
   * One round: each Eureka tenant's new events, one tenant after another. A realm that cannot be
   * read is logged once a minute (with how many failures were not), not once a round.
   */
  Future<Void> pollAll() {
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
    Cursor cursor = cursors.computeIfAbsent(tenant, t -> new Cursor());
    if (System.currentTimeMillis() < cursor.offUntil) {
      return Future.succeededFuture();
    }
    return tokens
        .adminToken()
        .compose(
            admin ->
                cursor.time < 0 ? begin(tenant, cursor, admin) : read(tenant, cursor, admin, 0));
  }

  /** First poll of a realm: are admin events on, and where do they stand now. */
  private Future<Void> begin(String tenant, Cursor cursor, String admin) {
    return keycloak
        .get("/admin/realms/" + tenant + "/events/config", admin)
        .compose(
            answer -> {
              JsonObject config = json(answer, "events config").getJsonObject("value");
              if (!Boolean.TRUE.equals(config.getBoolean("adminEventsEnabled"))) {
                cursor.offUntil = System.currentTimeMillis() + RECHECK_MILLIS;
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
                  .map(
                      latest -> {
                        JsonArray events = json(latest, "admin events").getJsonArray("value");
                        cursor.time =
                            events.isEmpty() ? 0 : events.getJsonObject(0).getLong("time");
                        events.forEach(
                            e -> cursor.seenAtTime.add(((JsonObject) e).getString("id")));
                        return null;
                      });
            });
  }

  /** Reads the events since the cursor, newest first, page by page, and applies the new ones. */
  private Future<Void> read(String tenant, Cursor cursor, String admin, int first) {
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
                if (isNew(cursor, event)) {
                  applied = applied.compose(v -> apply(tenant, event, admin));
                }
              }
              return applied.compose(
                  v ->
                      events.size() == PAGE
                          ? read(tenant, cursor, admin, first + PAGE)
                          : advance(cursor, events));
            });
  }

  private static boolean isNew(Cursor cursor, JsonObject event) {
    long time = event.getLong("time", 0L);
    return time > cursor.time
        || time == cursor.time && !cursor.seenAtTime.contains(event.getString("id"));
  }

  private static Future<Void> advance(Cursor cursor, JsonArray lastPage) {
    for (Object e : lastPage) {
      JsonObject event = (JsonObject) e;
      long time = event.getLong("time", 0L);
      if (time > cursor.time) {
        cursor.time = time;
        cursor.seenAtTime = new HashSet<>();
      }
      if (time == cursor.time) {
        cursor.seenAtTime.add(event.getString("id"));
      }
    }
    return Future.succeededFuture();
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
          .map(
              userId -> {
                if (userId != null) {
                  cache.revokeUser(tenant, userId, Duration.ZERO);
                  log.info(
                      "{} {} in realm {}: the user's decisions revoked",
                      type,
                      event.getString("operationType"),
                      tenant);
                } else {
                  invalidateTenant(tenant, type);
                }
                return null;
              });
    }
    if (TENANT_TYPES.contains(type)) {
      invalidateTenant(tenant, type);
    }
    return Future.succeededFuture();
  }

  private void invalidateTenant(String tenant, String type) {
    vertx.executeBlocking(() -> cache.invalidateTenant(tenant), false);
    log.info("{} changed in realm {}: the tenant's decisions dropped", type, tenant);
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

  /** Stops reading. */
  public void stop() {
    running = false;
    vertx.cancelTimer(timer);
  }
}
