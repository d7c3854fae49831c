package io.okapigw.folio.containers;

import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.ModuleDeployment;
import io.okapigw.folio.data.BarcodeCsv;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * What the {@code modules} process runs, over HTTP:
 *
 * <ul>
 *   <li>{@code GET /health}: 200 {@code {"status":"UP","modules":10,"served":N}}, N the requests
 *       its modules' handlers took so far;
 *   <li>{@code GET /modules}: {@code {"modules":[{"id","url","descriptor"}...], "data":{"seed",
 *       "patrons","items"}, "servicePointId"}}, the modules in enable order, with the URLs the
 *       gateway reaches them at;
 *   <li>{@code GET /barcodes.csv}: the barcodes the load driver and JMeter check out and in.
 * </ul>
 */
final class ManifestServer {

  private ManifestServer() {}

  /**
   * @return the port it listens on
   */
  static Future<Integer> start(Vertx vertx, ModulesOptions options, CirculationModules modules) {
    return barcodes(vertx, modules).compose(csv -> listen(vertx, options, modules, csv));
  }

  /** The CSV as {@link BarcodeCsv} writes it (through a temporary file: one format). */
  private static Future<Buffer> barcodes(Vertx vertx, CirculationModules modules) {
    return vertx
        .fileSystem()
        .createTempFile("okapigw-barcodes", ".csv")
        .compose(
            file ->
                BarcodeCsv.write(vertx, Path.of(file), modules.data())
                    .compose(v -> vertx.fileSystem().readFile(file))
                    .compose(csv -> vertx.fileSystem().delete(file).map(csv)));
  }

  private static Future<Integer> listen(
      Vertx vertx, ModulesOptions options, CirculationModules modules, Buffer barcodes) {
    Buffer manifest = manifest(options, modules).toBuffer();
    return vertx
        .createHttpServer()
        .requestHandler(
            req -> {
              switch (req.path()) {
                case "/health" -> send(req, "application/json", health(modules));
                case "/modules" -> send(req, "application/json", manifest);
                case "/barcodes.csv" -> send(req, "text/csv", barcodes);
                default -> req.response().setStatusCode(404).end("no such resource: " + req.path());
              }
            })
        .listen(options.port(), options.host())
        .map(server -> server.actualPort());
  }

  private static Buffer health(CirculationModules modules) {
    return new JsonObject()
        .put("status", "UP")
        .put("modules", modules.deployments().size())
        .put("served", modules.deployments().stream().mapToLong(d -> d.served().total()).sum())
        .toBuffer();
  }

  static JsonObject manifest(ModulesOptions options, CirculationModules modules) {
    JsonArray list = new JsonArray();
    List<ModuleDeployment> deployments = modules.deployments();
    for (ModuleDeployment deployment : deployments) {
      int port = URI.create(deployment.url()).getPort();
      list.add(
          new JsonObject()
              .put("id", deployment.id())
              .put("url", options.url(port))
              .put("descriptor", deployment.descriptor()));
    }
    return new JsonObject()
        .put("modules", list)
        .put("data", options.data().toJson())
        .put("servicePointId", modules.data().servicePointId());
  }

  private static void send(HttpServerRequest req, String type, Buffer body) {
    req.response().putHeader("Content-Type", type).end(body);
  }
}
