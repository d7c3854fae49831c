package io.okapigw.it.deployment;

import static io.restassured.RestAssured.given;

import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.data.CirculationData;
import io.okapigw.it.Jars;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * A descriptor registry on loopback, as FOLIO's is to an operator's Okapi: a gateway of ours
 * holding the simulated FOLIO modules' descriptors, each with a launch descriptor ({@code exec} of
 * the folio-modules jar's {@code module} command, or the modules image's), for {@code POST
 * /_/proxy/pull/modules}.
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

  private final StandaloneGateway gateway;

  private Registry(StandaloneGateway gateway) {
    this.gateway = gateway;
  }

  /**
   * @param launch the launch descriptor of a module, by module name ({@code mod-users})
   */
  static Registry start(Function<String, JsonObject> launch) throws IOException {
    StandaloneGateway gateway = StandaloneGateway.start(Jars.gateway(), List.of());
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
    given()
        .baseUri(gateway.url())
        .body(descriptors.encode())
        .post("/_/proxy/import/modules")
        .then()
        .statusCode(204);
    return new Registry(gateway);
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
    return gateway.url();
  }

  @Override
  public void close() {
    gateway.close();
  }
}
