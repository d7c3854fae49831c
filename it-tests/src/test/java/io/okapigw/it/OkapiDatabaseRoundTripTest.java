package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.TestPostgres;
import io.okapigw.testsupport.process.JavaProcess;
import io.restassured.response.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 22's first "Done when", with a real Okapi built from source: an Okapi deployment's command
 * line ({@code java -Dstorage=postgres -Dpostgres_host=... -Dport=... -Dokapiurl=... -jar
 * okapi-core-fat.jar dev}, and once the same keys in {@code -conf okapi.json}) starts Okapi on
 * PostgreSQL; Okapi registers modules (one with entries it takes and never matches, one timer with
 * {@code "delay": 20}) and tenants, enables them (its test module answers their {@code _tenant}
 * calls), posts discovery and changes a timer; Okapi stops; the same command line, the same file,
 * with this gateway's fat jar, serves every tenant as Okapi did; an install script posts Okapi's
 * descriptors again; changes are made through it (a tenant, a module, enabling, discovery, timers);
 * it stops; Okapi starts with the same command line again and sees them. With Okapi 6.1.5 and 7.0.7
 * where each is present (see {@link ReferenceOkapi}), else skipped with a notice. And Okapi and the
 * gateway on one database at once: Okapi's writes are refused while the gateway runs.
 */
class OkapiDatabaseRoundTripTest {

  private static final List<String> TENANTS = List.of("diku", "college");

  @TempDir Path dir;

  static Stream<Arguments> okapis() {
    return Stream.of(
        Arguments.of("6.1.5", false, ReferenceOkapi.v615()),
        Arguments.of("6.1.5", true, ReferenceOkapi.v615()),
        Arguments.of("7.0.7", false, ReferenceOkapi.v707()),
        Arguments.of("7.0.7", true, ReferenceOkapi.v707()));
  }

  @ParameterizedTest(name = "Okapi {0}, keys in -conf: {1}")
  @MethodSource("okapis")
  void okapiDeployment_runsUnchangedOnTheGateway_andOkapiSeesItsChanges(
      String version, boolean inConf, Optional<ReferenceOkapi> build) throws IOException {
    Assumptions.assumeTrue(build.isPresent(), "Okapi " + version + " not built here (see NOTICE)");
    ReferenceOkapi okapi = build.get();
    OkapiCommandLine dev =
        OkapiCommandLine.dev(TestPostgres.get().createDatabase(), FreePorts.belowEphemeralRange());
    OkapiCommandLine line = inConf ? dev.inConfFile() : dev;
    System.out.printf(
        "Okapi %s and the gateway, each run as: %s%n", version, line.shown("okapi-core-fat.jar"));
    try (ReferenceOkapi.Running module = okapi.startTestModule()) {
      View okapiWrote;
      try (ReferenceOkapi.Running first = okapi.start(line, dir)) {
        setUpThroughOkapi(first.url(), module.url());
        okapiWrote = View.of(first.url(), TENANTS);
        report("Okapi " + version + " wrote and served", okapiWrote);
        first.stop();
      }
      View gatewayChanged;
      try (ReferenceOkapi.Running gateway = startGateway(line)) {
        String url = gateway.url();
        assertThat(View.of(url, TENANTS)).isEqualTo(okapiWrote);
        postedAgainByAnInstallScript(url);
        changeThroughGateway(url, module.url());
        gatewayChanged = View.of(url, List.of("diku", "college", "third"));
        report("the gateway, on the same database, after its changes, served", gatewayChanged);
        assertThat(gatewayChanged.proxied())
            .containsEntry("third GET /testb/third", "200 It works")
            .containsKey("diku GET /testb/third");
        assertThat(tenantRequests(url))
            .as("the gateway called the module's _tenant for the new tenant")
            .contains("POST-third");
        gateway.stop();
      }
      try (ReferenceOkapi.Running again = okapi.start(line, dir)) {
        View okapiSees = View.of(again.url(), List.of("diku", "college", "third"));
        report("Okapi " + version + " started again on it serves", okapiSees);
        assertThat(okapiSees).isEqualTo(gatewayChanged);
        assertThat(okapiSees.timers().getJsonObject(0).getBoolean("modified")).isFalse();
        assertThat(okapiSees.timers().getJsonObject(1).getJsonObject("routingEntry"))
            .isEqualTo(
                new JsonObject()
                    .put("methods", new JsonArray().add("POST"))
                    .put("pathPattern", "/testb/timer/1")
                    .put("unit", "hour")
                    .put("delay", "3"));
        again.stop();
      }
    }
  }

  static Stream<Arguments> versions() {
    return Stream.of(
        Arguments.of("6.1.5", ReferenceOkapi.v615()), Arguments.of("7.0.7", ReferenceOkapi.v707()));
  }

  @ParameterizedTest(name = "Okapi {0}")
  @MethodSource("versions")
  void okapiAndGatewayAtOnce_okapisWritesRefused(String version, Optional<ReferenceOkapi> build)
      throws IOException {
    Assumptions.assumeTrue(build.isPresent(), "Okapi " + version + " not built here (see NOTICE)");
    ReferenceOkapi okapi = build.get();
    String db = TestPostgres.get().createDatabase();
    OkapiCommandLine okapiNode = OkapiCommandLine.dev(db, FreePorts.belowEphemeralRange());
    int port = FreePorts.belowEphemeralRange();
    OkapiCommandLine gatewayNode =
        okapiNode.with("port", String.valueOf(port)).with("okapiurl", "http://127.0.0.1:" + port);
    try (ReferenceOkapi.Running running = okapi.start(okapiNode, dir)) {
      post(running.url(), "/_/proxy/tenants", tenant("diku", "Diku"), 201);
      try (ReferenceOkapi.Running gateway = startGateway(gatewayNode)) {
        given()
            .baseUri(running.url())
            .body(tenant("late", "Late").encode())
            .post("/_/proxy/tenants")
            .then()
            .statusCode(500)
            .body(containsString("okapi-gateway is serving this database"));
        running.stop();
        assertThat(View.objects(View.get(gateway.url(), "/_/proxy/tenants")))
            .extracting(t -> t.getString("id"))
            .containsExactlyInAnyOrder("diku", "supertenant");
        try (ReferenceOkapi.Running refused = okapi.launch(okapiNode, dir)) {
          assertThat(refused.process().awaitExit(JavaProcess.PATIENCE))
              .as("Okapi started while the gateway runs: its first write is refused, it stops")
              .isNotZero();
          assertThat(refused.process().output()).contains("okapi-gateway is serving this database");
        }
        gateway.stop();
      }
      try (ReferenceOkapi.Running after = okapi.start(okapiNode, dir)) {
        post(after.url(), "/_/proxy/tenants", tenant("late", "Late"), 201);
        after.stop();
      }
    }
  }

  /** Shows what was compared (the test's output is the record of a run with Okapi present). */
  private static void report(String what, View view) {
    System.out.printf(
        "%s:%n  tenants %s%n  enabled %s%n  discovery %s%n  diku's timers %s%n  proxied %s%n",
        what,
        view.tenants().stream().map(t -> t.getString("id")).sorted().toList(),
        view.enabled(),
        view.discovery().stream()
            .map(d -> d.getString("srvcId") + "/" + d.getString("instId"))
            .sorted()
            .toList(),
        view.timers().stream()
            .map(JsonObject.class::cast)
            .map(
                t ->
                    t.getString("id")
                        + (t.getBoolean("modified") ? " (modified) " : " ")
                        + t.getJsonObject("routingEntry").encode())
            .toList(),
        view.proxied());
  }

  /** This gateway, run with the deployment's command line (the same keys, the same file). */
  private ReferenceOkapi.Running startGateway(OkapiCommandLine line) throws IOException {
    JavaProcess gateway =
        line.launch(Path.of(System.getProperty("java.home"), "bin", "java"), Jars.gateway(), dir);
    gateway.awaitReady(line.url() + "/_/proxy/health", JavaProcess.PATIENCE);
    return new ReferenceOkapi.Running(gateway, line.url());
  }

  private static void setUpThroughOkapi(String okapi, String module) {
    post(okapi, "/_/proxy/tenants", tenant("diku", "Diku library"), 201);
    post(okapi, "/_/proxy/tenants", tenant("college", "College"), 201);
    post(okapi, "/_/proxy/modules", Modules.timer(), 201);
    post(okapi, "/_/proxy/modules", Modules.basic(), 201);
    post(okapi, "/_/proxy/modules", Modules.odd(), 201);
    post(okapi, "/_/discovery/modules", instance("test-timer-1.0.0", "tt-1", module), 201);
    post(okapi, "/_/discovery/modules", instance("test-odd-1.0.0", "to-1", module), 201);
    post(okapi, "/_/discovery/modules", instance("test-basic-1.0.0", "tb-1", module), 201);
    post(
        okapi,
        "/_/proxy/tenants/diku/install",
        install("test-timer-1.0.0", "test-basic-1.0.0", "test-odd-1.0.0"),
        200);
    post(okapi, "/_/proxy/tenants/college/install", install("test-basic-1.0.0"), 200);
    patch(
        okapi,
        "/_/proxy/tenants/diku/timers/test-timer_0",
        "{\"unit\":\"minute\",\"delay\":\"7\"}");
  }

  /**
   * Descriptors Okapi registered, posted again as they are in an install script's files (Okapi
   * stored {@code "delay": 20} as {@code "20"}): the same modules, so nothing changes.
   */
  private static void postedAgainByAnInstallScript(String gateway) {
    for (JsonObject module : List.of(Modules.timer(), Modules.basic(), Modules.odd())) {
      post(gateway, "/_/proxy/modules", module, 201);
    }
    given()
        .baseUri(gateway)
        .body(new JsonArray().add(Modules.timer()).add(Modules.odd()).encode())
        .post("/_/proxy/import/modules")
        .then()
        .statusCode(204);
  }

  private static void changeThroughGateway(String gateway, String module) {
    post(gateway, "/_/proxy/tenants", tenant("third", "Third"), 201);
    post(gateway, "/_/proxy/modules", Modules.third(), 201);
    post(gateway, "/_/discovery/modules", instance("test-third-1.0.0", "t3-1", module), 201);
    post(gateway, "/_/discovery/modules", instance("test-basic-1.0.0", "tb-2", module), 201);
    post(
        gateway,
        "/_/proxy/tenants/third/install",
        install("test-third-1.0.0", "test-basic-1.0.0"),
        200);
    post(gateway, "/_/proxy/tenants/diku/install", install("test-third-1.0.0"), 200);
    patch(
        gateway,
        "/_/proxy/tenants/diku/timers/test-timer_1",
        "{\"unit\":\"hour\",\"delay\":\"3\"}");
    patch(gateway, "/_/proxy/tenants/diku/timers/test-timer_0", "{}");
  }

  /** Okapi's test module lists the {@code _tenant} calls it got when asked. */
  private static String tenantRequests(String gateway) {
    return given()
        .baseUri(gateway)
        .header("X-Okapi-Tenant", "third")
        .header("X-tenant-reqs", "yes")
        .get("/testb")
        .then()
        .statusCode(200)
        .extract()
        .asString();
  }

  private static JsonObject tenant(String id, String name) {
    return new JsonObject().put("id", id).put("name", name).put("description", name + " tenant");
  }

  private static JsonObject instance(String srvcId, String instId, String url) {
    return new JsonObject().put("srvcId", srvcId).put("instId", instId).put("url", url);
  }

  private static JsonArray install(String... ids) {
    JsonArray list = new JsonArray();
    for (String id : ids) {
      list.add(new JsonObject().put("id", id).put("action", "enable"));
    }
    return list;
  }

  private static void post(String base, String path, Object body, int status) {
    given()
        .baseUri(base)
        .contentType("application/json")
        .body(body.toString())
        .post(path)
        .then()
        .log()
        .ifValidationFails()
        .statusCode(status);
  }

  private static void patch(String base, String path, String body) {
    given()
        .baseUri(base)
        .contentType("application/json")
        .body(body)
        .patch(path)
        .then()
        .log()
        .ifValidationFails()
        .statusCode(204);
  }

  /**
   * What a gateway serves, as compared between Okapi and ours: the tenants, each tenant's enabled
   * modules (the okapi module of the supertenant aside: each names its own), discovery, diku's
   * timers, and calls through it for each tenant.
   */
  record View(
      Set<JsonObject> tenants,
      Map<String, List<String>> enabled,
      Set<JsonObject> discovery,
      JsonArray timers,
      Map<String, String> proxied) {

    static View of(String base, List<String> tenants) {
      Map<String, List<String>> enabled = new TreeMap<>();
      Map<String, String> proxied = new LinkedHashMap<>();
      for (String tenant : tenants) {
        enabled.put(tenant, ids(get(base, "/_/proxy/tenants/" + tenant + "/modules")));
        for (String path : List.of("/testb", "/testb/timer", "/testb/third", "/testb/odd")) {
          Response r = given().baseUri(base).header("X-Okapi-Tenant", tenant).get(path);
          proxied.put(
              tenant + " GET " + path,
              r.statusCode() + (r.statusCode() == 200 ? " " + r.asString() : ""));
        }
      }
      enabled.put(
          "supertenant",
          ids(get(base, "/_/proxy/tenants/supertenant/modules")).stream()
              .filter(id -> !id.startsWith("okapi-"))
              .toList());
      JsonArray timers = get(base, "/_/proxy/tenants/diku/timers");
      List<Object> sorted =
          timers.stream()
              .sorted(Comparator.comparing(t -> ((JsonObject) t).getString("id")))
              .toList();
      return new View(
          objects(get(base, "/_/proxy/tenants")),
          enabled,
          objects(get(base, "/_/discovery/modules")),
          new JsonArray(sorted),
          proxied);
    }

    private static JsonArray get(String base, String path) {
      return new JsonArray(
          given().baseUri(base).get(path).then().statusCode(200).extract().asString());
    }

    private static List<String> ids(JsonArray list) {
      return list.stream().map(o -> ((JsonObject) o).getString("id")).sorted().toList();
    }

    private static Set<JsonObject> objects(JsonArray list) {
      return list.stream().map(JsonObject.class::cast).collect(Collectors.toSet());
    }
  }

  /** The test module's descriptors, as Okapi's own tests describe it. */
  static final class Modules {

    private Modules() {}

    static JsonObject timer() {
      return module("test-timer-1.0.0", "test-timer", "2.2", handler("/testb/timer"))
          .put("name", "Okapi timer module")
          .put(
              "provides",
              new JsonArray()
                  .add(itf("test-timer", "2.2", null, handler("/testb/timer")))
                  .add(tenantInterface())
                  .add(
                      itf(
                          "_timer",
                          "1.0",
                          "system",
                          timer("/testb/timer/20").put("unit", "second").put("delay", 20),
                          timer("/testb/timer/1")
                              .put("schedule", new JsonObject().put("cron", "*/1 * * * *")),
                          timer("/testb/timer/3")
                              .put("schedule", new JsonObject().put("cron", "*/3 * * * *")))));
    }

    static JsonObject basic() {
      return module("test-basic-1.0.0", "test-basic", "2.2", handler("/testb"))
          .put("name", "Okapi test module");
    }

    /**
     * Entries Okapi takes and never matches: a handler without methods, one whose pattern does not
     * start with /.
     */
    static JsonObject odd() {
      JsonObject noMethods = handler("/testb/odd");
      noMethods.remove("methods");
      JsonObject odd = module("test-odd-1.0.0", "test-odd", "1.0", noMethods).put("name", 5);
      odd.getJsonArray("provides")
          .getJsonObject(0)
          .getJsonArray("handlers")
          .add(handler("testb/odd"));
      return odd;
    }

    static JsonObject third() {
      JsonObject third = module("test-third-1.0.0", "test-third", "1.0", handler("/testb/third"));
      third.getJsonArray("provides").add(tenantInterface());
      return third;
    }

    private static JsonObject module(String id, String itf, String version, JsonObject handler) {
      return new JsonObject()
          .put("id", id)
          .put("provides", new JsonArray().add(itf(itf, version, null, handler)))
          .put("requires", new JsonArray());
    }

    private static JsonObject tenantInterface() {
      return itf(
          "_tenant",
          "1.0",
          "system",
          handler("/_/tenant").put("methods", new JsonArray().add("POST")),
          handler("/_/tenant").put("methods", new JsonArray().add("DELETE")));
    }

    private static JsonObject itf(String id, String version, String type, JsonObject... handlers) {
      JsonObject itf =
          new JsonObject()
              .put("id", id)
              .put("version", version)
              .put("handlers", new JsonArray(new ArrayList<>(List.of((Object[]) handlers))));
      return type == null ? itf : itf.put("interfaceType", type);
    }

    private static JsonObject handler(String path) {
      return new JsonObject()
          .put("methods", new JsonArray().add("GET").add("POST"))
          .put("pathPattern", path)
          .put("permissionsRequired", new JsonArray());
    }

    private static JsonObject timer(String path) {
      return new JsonObject().put("methods", new JsonArray().add("POST")).put("pathPattern", path);
    }
  }
}
