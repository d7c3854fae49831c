package io.okapigw.core.eureka.events;

import io.okapigw.cache.AuthCache;
import io.okapigw.core.eureka.EurekaOptions;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * mod-login-keycloak's logout events, {@code {env}.{tenant}.mod-login-keycloak.logout} ({@code
 * {"userId", "sessionId", "keycloakUserId", "type": "LOGOUT" | "LOGOUT_ALL"}}), as the sidecar's
 * {@code LogoutConsumer} reads them: {@code LOGOUT} drops the session's decisions, {@code
 * LOGOUT_ALL} the user's. Unlike the sidecar, which scans every key for the id as a substring, the
 * cache revokes them in constant time ({@link AuthCache#revokeSession}); and for {@code
 * eureka.logout-settle} afterwards their decisions are asked of Keycloak and not cached, because
 * mod-login-keycloak sends the event before it ends the session in Keycloak (the sidecar caches
 * again what Keycloak granted in that gap, until the token expires).
 */
public final class LogoutEvents implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LogoutEvents.class);

  private final AuthCache cache;
  private final EurekaOptions options;
  private final Pattern topics;
  private final KafkaTopics kafka;

  private LogoutEvents(AuthCache cache, EurekaOptions options, String nodeId) {
    this.cache = cache;
    this.options = options;
    this.topics =
        Pattern.compile(Pattern.quote(options.env()) + "\\.([^.]+)\\.mod-login-keycloak\\.logout");
    Duration longest =
        cache.options().ttl().plus(cache.options().staleIfError()).plus(options.logoutSettle());
    this.kafka =
        new KafkaTopics(options, topics, "okapigw-logout-" + nodeId, longest, this::handle);
  }

  /**
   * Follows the logout topics of every tenant.
   *
   * @param nodeId this node's id: its own consumer group
   */
  public static LogoutEvents start(AuthCache cache, EurekaOptions options, String nodeId) {
    LogoutEvents events = create(cache, options, nodeId);
    events.kafka.start();
    log.info("following Kafka topics {} at {}", events.topics, options.kafka());
    return events;
  }

  /** Made, not yet reading. */
  static LogoutEvents create(AuthCache cache, EurekaOptions options, String nodeId) {
    return new LogoutEvents(cache, options, nodeId);
  }

  /** Applies one event of topic {@code topic}. */
  void handle(String topic, String value) {
    Matcher m = topics.matcher(topic);
    if (!m.matches()) {
      return;
    }
    String tenant = m.group(1);
    JsonObject event = new JsonObject(value);
    String type = event.getString("type");
    if ("LOGOUT".equals(type) && event.getString("sessionId") != null) {
      cache.revokeSession(tenant, event.getString("sessionId"), options.logoutSettle());
    } else if ("LOGOUT_ALL".equals(type) && event.getString("userId") != null) {
      cache.revokeUser(tenant, event.getString("userId"), options.logoutSettle());
    } else {
      throw new IllegalArgumentException("not a logout event of a known type: " + type);
    }
    log.info("{} of tenant {}: its decisions revoked", type, tenant);
  }

  @Override
  public void close() {
    kafka.close();
  }
}
