package io.okapigw.demo;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A Jaeger all-in-one (v2, in memory) in a process of its own, as trace backend of the demo, the
 * it-tests and {@code perf waterfall}: OTLP over HTTP in ({@link #otlpEndpoint()}), its query API
 * and UI out ({@link #traceUrl}). Built from the Go module proxy by {@code .ci/jaeger.sh} (see
 * docs/operations.md, "Tracing"); where it is not built, {@link #binary()} says so. That build
 * carries no UI, only a placeholder page: the UI is served from {@link #uiAssets()} where given, or
 * comes with an official release binary ({@link #hasUi()}).
 *
 * <p>Blocking: call it from a main thread or a worker, never an event loop.
 */
public final class Jaeger implements AutoCloseable {

  /** The system property naming the binary. */
  public static final String PROPERTY = "okapigw.jaeger";

  /** The environment variable naming the binary. */
  public static final String ENV = "OKAPIGW_JAEGER";

  /** Where {@code .ci/jaeger.sh} builds it: {@code ~/.cache/okapigw/jaeger-1.76.0/jaeger}. */
  public static final Path DEFAULT =
      Path.of(System.getProperty("user.home"), ".cache", "okapigw", "jaeger-1.76.0", "jaeger");

  /** The system property naming a directory of Jaeger UI assets (its {@code index.html}). */
  public static final String UI_PROPERTY = "okapigw.jaeger.ui";

  /** The environment variable naming a directory of Jaeger UI assets. */
  public static final String UI_ENV = "OKAPIGW_JAEGER_UI";

  /** Where the demo looks for Jaeger UI assets when none are named. */
  public static final Path UI_DEFAULT =
      Path.of(System.getProperty("user.home"), ".cache", "okapigw", "jaeger-ui-1.76.0");

  /** What Jaeger's placeholder page says where the binary carries no UI. */
  private static final String PLACEHOLDER = "not the Jaeger UI you are looking for";

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Process process;
  private final String host;
  private final int otlpPort;
  private final int queryPort;

  private Jaeger(Process process, String host, int otlpPort, int queryPort) {
    this.process = process;
    this.host = host;
    this.otlpPort = otlpPort;
    this.queryPort = queryPort;
  }

  /**
   * @return the Jaeger binary: {@value #PROPERTY}, else {@value #ENV}, else {@link #DEFAULT}; empty
   *     if that is not an executable file
   */
  public static Optional<Path> binary() {
    String named = System.getProperty(PROPERTY, System.getenv(ENV));
    Path path = named == null || named.isBlank() ? DEFAULT : Path.of(named);
    return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
  }

  /**
   * @return why {@link #binary()} is empty, for a skipped test or the demo's notice
   */
  public static String missing() {
    return "no Jaeger binary (set -D"
        + PROPERTY
        + " or "
        + ENV
        + ", or build it to "
        + DEFAULT
        + " with bash .ci/jaeger.sh)";
  }

  /**
   * @return Jaeger UI assets to serve instead of what the binary carries: {@value #UI_PROPERTY},
   *     else {@value #UI_ENV}, else {@link #UI_DEFAULT}; empty unless it holds an {@code
   *     index.html}
   */
  public static Optional<Path> uiAssets() {
    String named = System.getProperty(UI_PROPERTY, System.getenv(UI_ENV));
    Path path = named == null || named.isBlank() ? UI_DEFAULT : Path.of(named);
    return Files.isRegularFile(path.resolve("index.html")) ? Optional.of(path) : Optional.empty();
  }

  /**
   * @return why Jaeger shows only its placeholder page, and the two ways to its UI
   */
  public static String noUi() {
    return "this Jaeger has no UI: the Go module it is built from carries only a placeholder page."
        + " Either set "
        + ENV
        + " to an official Jaeger release binary (it embeds the UI), or "
        + UI_ENV
        + " (-D"
        + UI_PROPERTY
        + ") to a directory of Jaeger UI assets, such as jaeger-ui's release assets.tar.gz"
        + " unpacked (default "
        + UI_DEFAULT
        + ")";
  }

  /**
   * Starts Jaeger on 127.0.0.1 and waits (at most 60 s) until its query API answers.
   *
   * @param otlpPort where it receives OTLP over HTTP
   * @param queryPort its query API and UI
   * @param grpcPort its query gRPC port (unused here, but it must not collide)
   * @param workDir where its configuration and log go
   * @see #uiAssets() the UI it serves
   */
  public static Jaeger start(Path binary, int otlpPort, int queryPort, int grpcPort, Path workDir)
      throws IOException {
    Files.createDirectories(workDir);
    Path config = workDir.resolve("jaeger.yaml");
    try (InputStream in = Jaeger.class.getResourceAsStream("/jaeger.yaml")) {
      Files.write(config, in.readAllBytes());
    }
    ProcessBuilder builder =
        new ProcessBuilder(binary.toString(), "--config", config.toString())
            .redirectErrorStream(true)
            .redirectOutput(workDir.resolve("jaeger.log").toFile());
    builder
        .environment()
        .putAll(
            Map.of(
                "JAEGER_HOST", "127.0.0.1",
                "JAEGER_OTLP_PORT", Integer.toString(otlpPort),
                "JAEGER_QUERY_PORT", Integer.toString(queryPort),
                "JAEGER_QUERY_GRPC_PORT", Integer.toString(grpcPort),
                "JAEGER_UI_ASSETS", uiAssets().map(Path::toString).orElse("")));
    Jaeger jaeger = new Jaeger(builder.start(), "127.0.0.1", otlpPort, queryPort);
    try {
      jaeger.awaitQuery(workDir.resolve("jaeger.log"));
      return jaeger;
    } catch (IOException | RuntimeException e) {
      jaeger.close();
      throw e;
    }
  }

  private void awaitQuery(Path log) throws IOException {
    Instant deadline = Instant.now().plusSeconds(60);
    while (true) {
      if (!process.isAlive()) {
        throw new IOException("Jaeger exited: " + Files.readString(log));
      }
      try {
        if (get("/api/services").statusCode() == 200) {
          return;
        }
      } catch (ConnectException e) {
        // not listening yet
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IOException("Jaeger's query API did not answer within 60 s");
      }
      pause();
    }
  }

  /**
   * @return whether Jaeger serves its UI, not the placeholder page of a binary built without it
   */
  public boolean hasUi() throws IOException {
    HttpResponse<String> page = get("/");
    return page.statusCode() == 200 && !page.body().contains(PLACEHOLDER);
  }

  /**
   * @return the OTLP endpoint for the gateway's {@code tracing.endpoint}
   */
  public String otlpEndpoint() {
    return "http://" + host + ":" + otlpPort;
  }

  /**
   * @return the UI's page of one trace (the placeholder page where {@link #hasUi()} is false)
   */
  public String traceUrl(String traceId) {
    return "http://" + host + ":" + queryPort + "/trace/" + traceId;
  }

  /**
   * @return the query API's JSON of one trace
   */
  public String traceApiUrl(String traceId) {
    return "http://" + host + ":" + queryPort + "/api/traces/" + traceId;
  }

  /**
   * Reads a trace from Jaeger's query API ({@code GET /api/traces/{id}}) once {@code complete}
   * holds for it, waiting at most {@code wait} (spans arrive in batches).
   *
   * @return the trace: {@code spans} (each {@code spanID}, {@code operationName}, {@code
   *     references}, {@code startTime} and {@code duration} in µs, {@code tags}) and {@code
   *     processes}
   * @throws IOException if it is not there, or not complete, in time
   */
  public JsonObject trace(String traceId, Predicate<JsonObject> complete, Duration wait)
      throws IOException {
    Instant deadline = Instant.now().plus(wait);
    JsonObject last = null;
    while (Instant.now().isBefore(deadline)) {
      HttpResponse<String> answer = get("/api/traces/" + traceId);
      if (answer.statusCode() == 200) {
        JsonArray data = new JsonObject(answer.body()).getJsonArray("data");
        last = data == null || data.isEmpty() ? null : data.getJsonObject(0);
        if (last != null && complete.test(last)) {
          return last;
        }
      }
      pause();
    }
    throw new IOException(
        "trace "
            + traceId
            + (last == null
                ? " not in Jaeger"
                : " incomplete in Jaeger (" + last.getJsonArray("spans").size() + " spans)")
            + " after "
            + wait.toSeconds()
            + " s");
  }

  private HttpResponse<String> get(String path) throws IOException {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create("http://" + host + ":" + queryPort + path))
              .timeout(Duration.ofSeconds(10))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** 100 ms between two polls: the condition is Jaeger's answer, not the time. */
  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new IOException("interrupted", e));
    }
  }

  /** Stops Jaeger (and waits for it, at most 10 s). */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
