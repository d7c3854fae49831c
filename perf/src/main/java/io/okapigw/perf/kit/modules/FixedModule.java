package io.okapigw.perf.kit.modules;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.config.Sizes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;

/**
 * A module that answers every request with the same body of a fixed size, at once or after a fixed
 * delay: the "direct" side of the gateway-hop benchmark, the handler behind the gateway, and the
 * artificially slow handler of the parallel-auth benchmark.
 */
public final class FixedModule {

  public static final Setting<Integer> PORT =
      Setting.integer("port", 9200, 1, 65535).about("port on 127.0.0.1");

  public static final Setting<Long> SIZE =
      Setting.size("size", 1024, 0, 64 * Sizes.MB).about("the size of every answer's body");

  public static final Setting<Integer> INSTANCES =
      Setting.integer("instances", 1, 1, 64).about("HTTP server verticles, one per event loop");

  public static final Setting<Duration> DELAY =
      Setting.duration("delay", Duration.ZERO, Duration.ZERO, Duration.ofMinutes(1))
          .about(
              "answer each request this long after it arrived (a timer; the event loop is free)");

  /** What {@code fixed-module} is, for the usage text. */
  public static final String ABOUT =
      "a module answering every request with the same body, at once or after a delay";

  /** The settings of {@code fixed-module}. */
  public static final SettingsSpec SPEC = SettingsSpec.of(PORT, SIZE, INSTANCES, DELAY);

  private FixedModule() {}

  /**
   * {@code java -cp perf-fat.jar io.okapigw.perf.kit.modules.FixedModule [settings]}: as {@code
   * fixed-module}.
   */
  public static void main(String[] args) {
    ModuleProcess.main("fixed-module", ABOUT, SPEC, FixedModule::serve, args);
  }

  /**
   * {@code fixed-module}: serves until the process is stopped.
   *
   * @param settings read by {@link #SPEC}
   */
  public static void serve(Settings settings) {
    int port = settings.get(PORT);
    int size = Math.toIntExact(settings.get(SIZE));
    Duration delay = settings.get(DELAY);
    ModuleProcess.serve(
        "fixed module on 127.0.0.1:" + port + " answering " + Sizes.format(size),
        settings.get(INSTANCES),
        vertx -> start(vertx, port, size, delay));
  }

  /**
   * Answers at once.
   *
   * @param port port to listen on (0 = any free port)
   * @param size body size in bytes
   * @return the server once listening
   */
  public static Future<HttpServer> start(Vertx vertx, int port, int size) {
    return start(vertx, port, size, Duration.ZERO);
  }

  /**
   * Answers each request {@code delay} after it arrived (a Vert.x timer: the event loop is free
   * meanwhile, so concurrent requests wait in parallel).
   *
   * @param port port to listen on (0 = any free port)
   * @param size body size in bytes
   * @param delay time before answering; zero answers at once (millisecond resolution)
   * @return the server once listening
   * @throws IllegalArgumentException if {@code delay} is negative
   */
  public static Future<HttpServer> start(Vertx vertx, int port, int size, Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("delay must be >= 0, was " + delay);
    }
    Buffer body = Buffer.buffer(new byte[size]);
    for (int i = 0; i < size; i++) {
      body.setByte(i, (byte) ('a' + i % 26));
    }
    long delayMillis = delay.toMillis();
    return vertx
        .createHttpServer()
        .requestHandler(
            req -> {
              if (delayMillis == 0) {
                answer(req, body);
              } else {
                vertx.setTimer(delayMillis, id -> answer(req, body));
              }
            })
        .listen(port, "127.0.0.1");
  }

  private static void answer(HttpServerRequest req, Buffer body) {
    if (!req.response().closed()) {
      req.response().putHeader("Content-Type", "text/plain").end(body);
    }
  }
}
