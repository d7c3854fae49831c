package io.okapigw.perf.kit.modules;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.config.Sizes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The full-fake module: {@code GET /fake/{bytes}} answers at once with a {@link GeneratedBody} of
 * that many bytes ({@code Content-Length} set), streamed with back-pressure, so even a 256 MB
 * answer holds one 64 KiB chunk. Anything else: 404; more than {@link #MAX_SIZE}: 400.
 */
public final class FakeBodyModule {

  /** Largest body served. */
  public static final long MAX_SIZE = 4 * Sizes.GB;

  /** The module id in {@link #descriptor()}. */
  public static final String MODULE_ID = "mod-fullfake-1.0.0";

  /** The permission its one handler requires. */
  public static final String PERMISSION = "fake.get";

  public static final Setting<Integer> PORT =
      Setting.integer("port", 9210, 1, 65535).about("port on 127.0.0.1");

  public static final Setting<Integer> INSTANCES =
      Setting.integer("instances", 1, 1, 64).about("HTTP server verticles, one per event loop");

  /** What {@code fake-module} is, for the usage text. */
  public static final String ABOUT =
      "the full-fake module: GET /fake/{bytes} streams a generated body of that size";

  /** The settings of {@code fake-module}. */
  public static final SettingsSpec SPEC = SettingsSpec.of(PORT, INSTANCES);

  private static final Pattern PATH = Pattern.compile("/fake/(\\d{1,12})");

  private FakeBodyModule() {}

  /**
   * {@code java -cp perf-fat.jar io.okapigw.perf.kit.modules.FakeBodyModule [settings]}: as {@code
   * fake-module}.
   */
  public static void main(String[] args) {
    ModuleProcess.main("fake-module", ABOUT, SPEC, FakeBodyModule::serve, args);
  }

  /**
   * @param port port to listen on, on 127.0.0.1 (0 = any free port)
   * @return the server once listening
   */
  public static Future<HttpServer> start(Vertx vertx, int port) {
    return vertx
        .createHttpServer()
        .requestHandler(FakeBodyModule::handle)
        .listen(port, "127.0.0.1");
  }

  /**
   * @return the path answering {@code size} bytes
   */
  public static String path(long size) {
    return "/fake/" + size;
  }

  /**
   * @return its module descriptor: {@code GET /fake/{bytes}} requiring {@value #PERMISSION}
   */
  public static JsonObject descriptor() {
    return new JsonObject(
        """
        {"id": "%s", "provides": [{"id": "fullfake", "version": "1.0", "handlers": [
          {"methods": ["GET"], "pathPattern": "/fake/{bytes}", "permissionsRequired": ["%s"]}]}]}
        """
            .formatted(MODULE_ID, PERMISSION));
  }

  /**
   * {@code fake-module}: serves until the process is stopped.
   *
   * @param settings read by {@link #SPEC}
   */
  public static void serve(Settings settings) {
    int port = settings.get(PORT);
    ModuleProcess.serve(
        "full-fake module on 127.0.0.1:" + port + ", GET /fake/{bytes}",
        settings.get(INSTANCES),
        vertx -> start(vertx, port));
  }

  private static void handle(HttpServerRequest request) {
    Matcher m = PATH.matcher(request.path());
    if (!m.matches()) {
      request.response().setStatusCode(404).end("GET /fake/{bytes}");
      return;
    }
    long size = Long.parseLong(m.group(1));
    if (size > MAX_SIZE) {
      request.response().setStatusCode(400).end("at most " + MAX_SIZE + " bytes");
      return;
    }
    request
        .response()
        .putHeader("Content-Type", "application/octet-stream")
        .putHeader("Content-Length", Long.toString(size))
        .send(GeneratedBody.of(Vertx.currentContext(), size));
  }
}
