package io.okapigw.core.eureka.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.config.Settings;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.cluster.ClusterOptions;
import io.okapigw.core.cluster.ClusteredVertx;
import io.okapigw.core.eureka.EurekaCalls;
import io.okapigw.core.eureka.EurekaOptions;
import io.okapigw.core.eureka.ServiceTokens;
import io.okapigw.core.upstream.CallObserver;
import io.okapigw.core.upstream.ModuleClient;
import io.okapigw.core.upstream.UpstreamOptions;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Keycloak's admin events read once per cluster (issue 45 item 3): an idle cluster makes the same
 * calls per tenant per round whatever its number of nodes, and when the reader leaves another
 * member reads on from where the cluster's position stands, every node dropping what each event
 * touches. Rounds are driven by the test (no timer, no clock): calls are counted, not timed.
 */
class AdminEventsClusterTest {

  private static final Set<String> TENANTS = Set.of("t1", "t2");
  private static final int ROUNDS = 10;
  private static final Duration BUS_TIMEOUT = Duration.ofSeconds(10);

  private final Vertx keycloakVertx = Vertx.vertx();
  private final AdminKeycloak keycloak = new AdminKeycloak(keycloakVertx);
  private final List<Vertx> vertxes = new ArrayList<>();
  private final List<Node> nodes = new ArrayList<>();

  /** One gateway node's part in this: its bus, role, follower and what its cache was told. */
  private record Node(
      Vertx vertx, ClusterBus bus, ReaderRole role, AdminEvents events, Drops drops) {
    boolean reads() {
      return role.held().await();
    }
  }

  @AfterEach
  void stop() {
    vertxes.forEach(v -> v.close().await());
    keycloakVertx.close().await();
  }

  @Test
  void idleCluster_adminEventCalls_sameForOneAndThreeNodes() {
    startSingleNode();
    rounds();
    Map<String, Integer> oneNode = keycloak.callsPerRealm();
    assertThat(oneNode).containsOnlyKeys("t1", "t2");
    // the first round asks whether events are on and where they stand (2 calls), then 1 a round
    assertThat(oneNode.values()).containsOnly(ROUNDS + 1);

    nodes.clear();
    vertxes.remove(0).close().await();
    keycloak.reset();
    startCluster(3);
    rounds();
    assertThat(keycloak.callsPerRealm()).isEqualTo(oneNode);
    assertThat(nodes.stream().filter(Node::reads)).hasSize(1);
  }

  @Test
  void readerLeaves_anotherReadsOnFromTheClustersPosition_noEventLost() {
    startCluster(3);
    rounds(1); // positions taken: no event yet
    keycloak.event("t1", "REALM_ROLE_MAPPING", "users/kc-1/role-mappings/realm");
    rounds(1);
    for (Node node : nodes) {
      assertThat(node.drops.seen).containsExactly("revokeUser t1 folio-kc-1");
    }

    Node reader = nodes.stream().filter(Node::reads).findFirst().orElseThrow();
    keycloak.event("t1", "GROUP_MEMBERSHIP", "users/kc-2/groups/g1");
    int configReads = keycloak.configReads.get();
    nodes.remove(reader);
    vertxes.remove(reader.vertx);
    reader.vertx.close().await(); // gone before it read the second event
    awaitMembers(nodes.size());

    rounds(1);
    assertThat(nodes.stream().filter(Node::reads)).hasSize(1);
    for (Node node : nodes) {
      assertThat(node.drops.seen)
          .containsExactly("revokeUser t1 folio-kc-1", "revokeUser t1 folio-kc-2");
    }
    // the new reader went on from the cluster's position: it did not begin again from the newest
    assertThat(keycloak.configReads.get()).isEqualTo(configReads);
  }

  @Test
  void tenantChange_droppedOnEveryNode_readOnce() {
    startCluster(2);
    rounds(1);
    keycloak.event("t2", "AUTHORIZATION_POLICY", "clients/c1/authz/resource-server/policy/p1");
    int before = keycloak.eventReads.get();
    rounds(1);
    for (Node node : nodes) {
      assertThat(node.drops.seen).containsExactly("invalidateTenant t2");
    }
    assertThat(keycloak.eventReads.get() - before).isEqualTo(TENANTS.size());
  }

  /**
   * A node that cannot read admin events (no admin client secret, or the interval 0) is never the
   * reader, whatever its id: the others read for it.
   */
  @Test
  void nodeThatCannotRead_neverTheReader() {
    startCluster(2, List.of(false, true));
    rounds(3);
    assertThat(nodes.get(0).reads()).isFalse();
    assertThat(nodes.get(1).reads()).isTrue();
    assertThat(keycloak.callsPerRealm().values()).containsOnly(3 + 1);
  }

  private void rounds() {
    rounds(ROUNDS);
  }

  private void rounds(int rounds) {
    for (int round = 0; round < rounds; round++) {
      for (Node node : nodes) {
        node.events.pollAll().await();
      }
    }
  }

  private void startSingleNode() {
    Vertx vertx = Vertx.vertx();
    vertxes.add(vertx);
    nodes.add(node(vertx, true));
  }

  private void startCluster(int size) {
    startCluster(size, IntStream.range(0, size).mapToObj(i -> true).toList());
  }

  private void startCluster(int size, List<Boolean> candidates) {
    List<Integer> ports =
        IntStream.range(0, size).mapToObj(i -> FreePorts.belowEphemeralRange()).toList();
    List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
    for (int port : ports) {
      Vertx vertx =
          ClusteredVertx.start(new ClusterOptions("127.0.0.1", port, members, null)).await();
      vertxes.add(vertx);
    }
    for (int i = 0; i < size; i++) {
      nodes.add(node(vertxes.get(i), candidates.get(i)));
    }
    awaitMembers(size);
  }

  private void awaitMembers(int size) {
    for (int i = 0; i < 600 && nodes.stream().anyMatch(n -> n.bus.members().size() != size); i++) {
      keycloakVertx.timer(50).await();
    }
    nodes.forEach(n -> assertThat(n.bus.members()).hasSize(size));
  }

  private Node node(Vertx vertx, boolean candidate) {
    EurekaOptions options =
        EurekaOptions.from(
            Settings.of(
                Map.of(
                    "eureka.keycloak-url", keycloak.url(), "eureka.admin-client-secret", "adm")));
    ModuleClient modules =
        ModuleClient.create(vertx, UpstreamOptions.defaults(), CallObserver.NONE);
    EurekaCalls calls = new EurekaCalls(modules, options);
    ClusterBus bus = ClusterBus.create(vertx, BUS_TIMEOUT);
    ReaderRole role = ReaderRole.start(vertx, bus, candidate).await();
    Drops drops = new Drops();
    AdminEvents events =
        AdminEvents.create(
                vertx,
                drops.cache(),
                calls,
                new ServiceTokens(calls, options, Ticker.systemTicker()),
                () -> TENANTS,
                options,
                bus,
                role,
                System::nanoTime)
            .await();
    return new Node(vertx, bus, role, events, drops);
  }

  /** A real cache that records the drops it is asked for. */
  private static final class Drops {
    final List<String> seen = new CopyOnWriteArrayList<>();

    AuthCache cache() {
      AuthCache real = AuthCache.create(AuthCacheOptions.defaults(), new SimpleMeterRegistry());
      return (AuthCache)
          Proxy.newProxyInstance(
              AuthCache.class.getClassLoader(),
              new Class<?>[] {AuthCache.class},
              (proxy, method, args) -> {
                switch (method.getName()) {
                  case "revokeUser" -> seen.add("revokeUser " + args[0] + " " + args[1]);
                  case "invalidateTenant" -> seen.add("invalidateTenant " + args[0]);
                  default -> {}
                }
                return method.invoke(real, args);
              });
    }
  }

  /**
   * Keycloak's master token endpoint and the admin API's events: each realm's events config (on),
   * its admin events newest first ({@code dateFrom} in milliseconds, {@code first}, {@code max}),
   * its users' {@code user_id} ({@code folio-} and the Keycloak id).
   */
  private static final class AdminKeycloak {
    private final HttpServer server;
    private final Map<String, List<JsonObject>> events = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    final AtomicInteger configReads = new AtomicInteger();
    final AtomicInteger eventReads = new AtomicInteger();
    private final AtomicInteger ids = new AtomicInteger();
    private long time = 1_000_000;

    AdminKeycloak(Vertx vertx) {
      Router router = Router.router(vertx);
      router
          .post("/realms/master/protocol/openid-connect/token")
          .handler(
              ctx -> ctx.json(new JsonObject().put("access_token", "adm").put("expires_in", 300)));
      router
          .get("/admin/realms/:realm/events/config")
          .handler(
              ctx -> {
                count(ctx.pathParam("realm"));
                configReads.incrementAndGet();
                ctx.json(new JsonObject().put("adminEventsEnabled", true));
              });
      router
          .get("/admin/realms/:realm/admin-events")
          .handler(
              ctx -> {
                String realm = ctx.pathParam("realm");
                count(realm);
                eventReads.incrementAndGet();
                long from = Long.parseLong(ctx.request().getParam("dateFrom", "0"));
                int first = Integer.parseInt(ctx.request().getParam("first", "0"));
                int max = Integer.parseInt(ctx.request().getParam("max", "100"));
                List<JsonObject> found =
                    events.getOrDefault(realm, List.of()).stream()
                        .filter(e -> e.getLong("time") >= from)
                        .sorted(
                            Comparator.comparing((JsonObject e) -> e.getLong("time")).reversed())
                        .skip(first)
                        .limit(max)
                        .toList();
                ctx.json(new JsonArray(new ArrayList<>(found)));
              });
      router
          .get("/admin/realms/:realm/users/:id")
          .handler(
              ctx ->
                  ctx.json(
                      new JsonObject()
                          .put(
                              "attributes",
                              new JsonObject()
                                  .put(
                                      "user_id",
                                      new JsonArray().add("folio-" + ctx.pathParam("id"))))));
      server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
    }

    String url() {
      return "http://127.0.0.1:" + server.actualPort();
    }

    synchronized void event(String realm, String type, String path) {
      time += 1000;
      events
          .computeIfAbsent(realm, r -> new CopyOnWriteArrayList<>())
          .add(
              new JsonObject()
                  .put("id", "e" + ids.incrementAndGet())
                  .put("time", time)
                  .put("realmId", realm)
                  .put("operationType", "UPDATE")
                  .put("resourceType", type)
                  .put("resourcePath", path));
    }

    private void count(String realm) {
      calls.computeIfAbsent(realm, r -> new AtomicInteger()).incrementAndGet();
    }

    /** Counts from zero and no realm read yet: another cluster begins. */
    void reset() {
      calls.clear();
      configReads.set(0);
      eventReads.set(0);
    }

    Map<String, Integer> callsPerRealm() {
      Map<String, Integer> counts = new java.util.TreeMap<>();
      calls.forEach((realm, n) -> counts.put(realm, n.get()));
      return counts;
    }
  }
}
