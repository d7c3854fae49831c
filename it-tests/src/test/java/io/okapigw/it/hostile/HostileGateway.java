package io.okapigw.it.hostile;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.AuthtokenVerticle;
import io.okapigw.authtoken.gateway.InvalidationOptions;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.throttle.LoginThrottleOptions;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.folio.register.AuthtokenDescriptor;
import io.okapigw.it.AdminCalls;
import io.okapigw.it.Jars;
import io.okapigw.testsupport.Descriptors;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One real gateway JVM, set up as a deployment facing hostile clients, shared by every test of this
 * package (started by the first that asks for it, killed after the last test of the run):
 *
 * <ul>
 *   <li>short {@code server.*} timeouts, so slow clients are closed within the test's patience:
 *       {@link #HEADER_TIMEOUT}, {@link #IDLE_TIMEOUT}, {@code proxy.idle-timeout} {@link
 *       #PROXY_IDLE_TIMEOUT}; yet seconds apart and far from a request's latency, so that a test
 *       tells which one closed a connection, and what must happen before one fires does, on a busy
 *       machine too;
 *   <li>{@value #MAX_CONNECTIONS} module connections per module instance and event loop (2 event
 *       loops), so that a connection left dirty or lost jams a pool within a few requests;
 *   <li>the admin API on a listener of its own ({@code admin.public=false}) and protected: the real
 *       authtoken module (in this JVM) is the auth module of {@code supertenant} and of tenant
 *       {@code diku}; {@link #superToken} opens the admin API;
 *   <li>tenant {@code diku} with the {@link Backend} module: {@code /s/*} open to anyone, {@code
 *       GET /secure/*} needing {@code secure.get}, which user {@code alice} has ({@link
 *       #aliceToken}), {@code GET /spy/items/{id}} open but {@code GET /spy/items/secret} needing
 *       {@code secure.get}, {@code /f/*} with a pre and a post filter (the {@link Backend} again,
 *       as module {@value #FILTERS_ID}); users {@code carol} and {@code dave} without permissions;
 *       the {@link DyingModule}: {@code /die/*}, open; and module {@value #TIMER_ID} with one
 *       {@code _timer}, disabled ({@code delay} 0), its instance a port nothing listens on;
 *   <li>tenant {@value #PLAIN} with the {@link Backend} module and no auth module.
 * </ul>
 *
 * Tests take it as a parameter: {@code @ExtendWith(HostileGateway.Resolver.class)}.
 */
final class HostileGateway implements AutoCloseable {

  static final Duration HEADER_TIMEOUT = Duration.ofSeconds(2);
  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(12);
  static final Duration PROXY_IDLE_TIMEOUT = Duration.ofSeconds(6);

  /**
   * The longest a test waits for an answer the gateway gives at once (or for a module to see a
   * request): a hang guard, far from any latency on a busy machine. A jammed pool or a stalled
   * connection shows as a wrong status or a timeout of the gateway's own, not as this.
   */
  static final Duration ANSWER_BOUND = Duration.ofSeconds(30);

  static final int MAX_CONNECTIONS = 4;
  static final String TENANT = "diku";
  static final String BACKEND_ID = "mod-backend-1.0.0";
  static final String FILTERS_ID = "mod-filters-1.0.0";
  static final String TIMER_ID = "mod-timer-1.0.0";
  static final String PLAIN = "plain";

  final Vertx vertx = Vertx.vertx();
  final Backend backend = Backend.start(vertx);
  final DyingModule dying;
  private final Path dir;
  private final JavaProcess process;
  private final int port;
  private final int adminPort;
  private String superToken;
  private String aliceToken;
  private final AtomicInteger markers = new AtomicInteger();

  private HostileGateway() throws IOException {
    dying = new DyingModule();
    dir = Files.createTempDirectory("okapigw-hostile");
    port = FreePorts.belowEphemeralRange();
    adminPort = FreePorts.belowEphemeralRange();
    process =
        Jars.devGateway(
            port,
            "--admin.port",
            Integer.toString(adminPort),
            "--admin.host",
            "127.0.0.1",
            "--admin.public",
            "false",
            "--instances",
            "2",
            "--server.header-timeout",
            HEADER_TIMEOUT.toMillis() + "ms",
            "--server.idle-timeout",
            IDLE_TIMEOUT.toMillis() + "ms",
            "--proxy.idle-timeout",
            PROXY_IDLE_TIMEOUT.toMillis() + "ms",
            "--proxy.max-connections",
            Integer.toString(MAX_CONNECTIONS));
    process.awaitReady(adminUrl() + "/_/proxy/health", JavaProcess.PATIENCE);
  }

  /** Starts it and registers everything; closes what it started if that fails. */
  static HostileGateway start() throws IOException {
    HostileGateway gw = new HostileGateway();
    try {
      gw.install();
      return gw;
    } catch (IOException | RuntimeException | Error e) {
      gw.close();
      throw e;
    }
  }

  private void install() throws IOException {
    AuthtokenVerticle authtoken =
        new AuthtokenVerticle(
            AuthtokenOptions.onLoopback(dir)
                .withInvalidation(InvalidationOptions.to(adminUrl()))
                .withPasswords(PasswordOptions.cheapest())
                // every client of the run is 127.0.0.1: the fuzz run's failed logins must not
                // lock it for the tests after (users are locked as by default)
                .withLoginThrottle(new LoginThrottleOptions(5, Duration.ofMinutes(10), 0, 100))
                .withBootstrap(
                    List.of(
                        new BootstrapUser(TENANT, "alice", "alice", List.of("secure.get")),
                        new BootstrapUser(TENANT, "carol", "carol", List.of()),
                        new BootstrapUser(TENANT, "dave", "dave", List.of()),
                        new BootstrapUser(
                            "supertenant", "super_admin", "super_admin", List.of("okapi.all")))));
    vertx.deployVerticle(authtoken).await();
    AdminCalls calls = new AdminCalls(this::admin);
    calls.createTenant(TENANT);
    calls.register(AuthtokenDescriptor.read(), "http://127.0.0.1:" + authtoken.actualPort());
    calls.register(
        Descriptors.module(
            BACKEND_ID,
            "backend",
            Descriptors.handler("*", "/s/*"),
            Descriptors.handler("GET", "/secure/*", "secure.get"),
            Descriptors.handler("GET", "/spy/items/{id}"),
            Descriptors.handler("GET", "/spy/items/secret", "secure.get"),
            Descriptors.handler("*", "/f/*")),
        backend.url());
    calls.register(filters(), backend.url());
    calls.register(timer(), "http://127.0.0.1:" + FreePorts.belowEphemeralRange());
    calls.enable(TENANT, "mod-authtoken-1.0.0");
    calls.enable(TENANT, BACKEND_ID);
    calls.enable(TENANT, FILTERS_ID);
    calls.enable(TENANT, TIMER_ID);
    calls.createTenant(PLAIN);
    calls.enable(PLAIN, BACKEND_ID);
    calls.register(
        Descriptors.module("mod-dying-1.0.0", "dying", Descriptors.handler("*", "/die/*")),
        dying.url());
    calls.enable(TENANT, "mod-dying-1.0.0");
    calls.enable("supertenant", "mod-authtoken-1.0.0");
    superToken = login("supertenant", "super_admin");
    aliceToken = login(TENANT, "alice");
  }

  /** A pre and a post filter on {@code /f/*}. */
  private static JsonObject filters() {
    return Descriptors.filters(
        FILTERS_ID, Descriptors.filter("/f/*", "pre"), Descriptors.filter("/f/*", "post"));
  }

  /** One {@code _timer}, disabled: a test may change it through the timer API. */
  private static JsonObject timer() {
    return Descriptors.systemModule(
        TIMER_ID,
        "_timer",
        new JsonObject()
            .put("methods", new JsonArray().add("POST"))
            .put("pathPattern", "/timer/tick")
            .put("unit", "minute")
            .put("delay", "0"));
  }

  private String login(String tenant, String user) {
    return AdminCalls.login(url(), tenant, user, user);
  }

  /**
   * @return the directory of the authtoken module's JSON store and signing key
   */
  Path dir() {
    return dir;
  }

  /**
   * @return the public listener's port
   */
  int port() {
    return port;
  }

  int adminPort() {
    return adminPort;
  }

  String url() {
    return "http://127.0.0.1:" + port;
  }

  String adminUrl() {
    return "http://127.0.0.1:" + adminPort;
  }

  /**
   * @return a request to the admin listener, as super_admin once the API is protected
   */
  RequestSpecification admin() {
    RequestSpecification spec = given().baseUri(adminUrl());
    return superToken == null ? spec : spec.header("X-Okapi-Token", superToken);
  }

  /**
   * @return super_admin's token: every admin permission
   */
  String superToken() {
    return superToken;
  }

  /**
   * @return alice's token (tenant diku): {@code secure.get}
   */
  String aliceToken() {
    return aliceToken;
  }

  /**
   * Asserts that every module pool serves: {@code 2 *} {@link #MAX_CONNECTIONS} {@code + 4} pings
   * at once (more than the pools of both event loops hold together, so any module connection left
   * busy or dirty is drawn), each on a connection of its own, all answered 200 within {@link
   * #ANSWER_BOUND}.
   */
  void assertPoolsServe() throws InterruptedException {
    Duration bound = ANSWER_BOUND;
    List<Outcome> pings =
        Outcome.concurrently(
            2 * MAX_CONNECTIONS + 4,
            bound,
            () -> {
              try (RawConnection c = RawConnection.open(port)) {
                return c.send("GET /s/ping HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n\r\n")
                    .response("GET", bound);
              }
            });
    assertThat(pings)
        .as("pings at once, each answered 200 within %s", bound)
        .allSatisfy(o -> assertThat(o.status()).as(o.toString()).isEqualTo(200));
  }

  /**
   * What the module received since the last call (or {@link Backend#drain}), without waiting for
   * time to pass: a marker request is sent on a connection of its own and answered first, so that
   * anything the gateway forwarded before has arrived.
   *
   * @return the requests received, oldest first, the marker left out
   */
  List<Backend.Recorded> forwarded() throws IOException {
    String marker = "/s/marker-" + markers.incrementAndGet();
    try (RawConnection c = RawConnection.open(port)) {
      RawResponse answer =
          c.send("GET " + marker + " HTTP/1.1\r\nHost: x\r\n" + "X-Okapi-Tenant: diku\r\n\r\n")
              .response();
      assertThat(answer.status()).as("marker request: " + answer).isEqualTo(200);
    }
    return backend.drain().stream().filter(r -> !r.path().equals(marker)).toList();
  }

  /**
   * @return everything the gateway JVM printed so far (its log, INFO and above)
   */
  String output() {
    try {
      return process.output();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void close() {
    process.close();
    vertx.close().await();
    dying.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
  }

  /**
   * Resolves parameters of type {@link HostileGateway}: the one gateway of the run, started on
   * first use and closed when the run ends.
   */
  static final class Resolver implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(HostileGateway.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == HostileGateway.class;
    }

    /**
     * Starts the gateway once; a start that failed fails every test asking for it at once, with the
     * same cause, rather than being tried again by each.
     */
    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      Started started =
          context
              .getRoot()
              .getStore(NAMESPACE)
              .getOrComputeIfAbsent(
                  Started.class,
                  key -> {
                    try {
                      return new Started(start(), null);
                    } catch (IOException | RuntimeException | Error e) {
                      return new Started(null, e);
                    }
                  },
                  Started.class);
      if (started.failure() != null) {
        throw new IllegalStateException("the gateway did not start", started.failure());
      }
      return started.gateway();
    }

    /** The gateway of the run, or why it did not start; closes it when the run ends. */
    record Started(HostileGateway gateway, Throwable failure) implements AutoCloseable {
      @Override
      public void close() {
        if (gateway != null) {
          gateway.close();
        }
      }
    }
  }
}
