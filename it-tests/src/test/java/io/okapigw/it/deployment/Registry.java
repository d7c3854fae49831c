package io.okapigw.it.deployment;

import static io.restassured.RestAssured.given;

import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.data.CirculationData;
import io.okapigw.it.Jars;
import io.okapigw.it.ReferenceOkapi;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A descriptor registry on loopback, as FOLIO's is to an operator's Okapi: a real Okapi 6.1.5 (in
 * memory, started from its jar), as FOLIO's registry is an Okapi, holding the simulated FOLIO
 * modules' descriptors, each with a launch descriptor ({@code exec} of the folio-modules jar's
 * {@code module} command, or the modules image's), for {@code POST /_/proxy/pull/modules}. Where
 * Okapi 6.1.5 is not built, a gateway of ours holds them (with a notice).
 */
final class Registry implements AutoCloseable {

  /** A small library: every module generates it alike. */
  static final CirculationData.Options LIBRARY =
      CirculationData.Options.defaults().withPatrons(20).withItems(20);

  /**
   * A frontend module, as platform-complete's stripes-install.json lists them: no launch
   * descriptor.
   */
  static final String FRONTEND = "folio_inventory-1.0.0";

  private final String url;
  private final Runnable close;

  private Registry(String url, Runnable close) {
    this.url = url;
    this.close = close;
  }

  /**
   * @param launch the launch descriptor of a module, by module name ({@code mod-users})
   */
  static Registry start(Function<String, JsonObject> launch) throws IOException {
    Optional<ReferenceOkapi> okapi = ReferenceOkapi.v615();
    Registry registry;
    if (okapi.isPresent()) {
      Path log = Files.createTempFile("registry-okapi-6.1.5", ".log");
      ReferenceOkapi.Running running = okapi.get().startInMemory(log);
      registry = new Registry(running.url(), running::close);
    } else {
      System.err.println(
          "NOTICE: Okapi 6.1.5 not built: the registry pulled from is a gateway of ours");
      StandaloneGateway gateway = StandaloneGateway.start(Jars.gateway(), List.of());
      registry = new Registry(gateway.url(), gateway::close);
    }
    given()
        .baseUri(registry.url)
        .body(descriptors(launch).encode())
        .post("/_/proxy/import/modules")
        .then()
        .statusCode(204);
    return registry;
  }

  private static JsonArray descriptors(Function<String, JsonObject> launch) {
    JsonArray descriptors = new JsonArray();
    for (JsonObject descriptor : CirculationModules.descriptors(LIBRARY)) {
      String id = descriptor.getString("id");
      String name = id.substring(0, id.lastIndexOf('-'));
      descriptors.add(descriptor.put("launchDescriptor", launch.apply(name)));
    }
    descriptors.add(
        new JsonObject()
            .put("id", FRONTEND)
            .put("name", "Inventory")
            .put(
                "requires",
                new JsonArray()
                    .add(new JsonObject().put("id", "locations").put("version", "3.0"))));
    return descriptors;
  }

  /** The {@code exec} of a module: this JVM's java running the folio-modules jar. */
  static JsonObject exec(String name) {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path jar = Jars.root().resolve("folio-modules/target/folio-modules-fat.jar");
    return new JsonObject()
        .put(
            "exec",
            String.join(
                " ",
                java.toString(),
                "-Xmx96m",
                "-jar",
                jar.toString(),
                "module",
                "--name",
                name,
                "--port",
                "%p",
                "--host",
                "127.0.0.1",
                "--patrons",
                Integer.toString(LIBRARY.patrons()),
                "--items",
                Integer.toString(LIBRARY.items())));
  }

  String url() {
    return url;
  }

  @Override
  public void close() {
    close.run();
  }
}
