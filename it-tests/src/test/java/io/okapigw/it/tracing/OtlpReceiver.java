package io.okapigw.it.tracing;

import io.okapigw.demo.TraceSpan;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP trace receiver in the test's JVM: what the gateways export ({@code POST /v1/traces},
 * protobuf, gzip or not) kept by trace id and read back by {@link #trace}. The tracing tests need
 * no Jaeger build with it (issue 48: {@code .ci/jaeger.sh} built Jaeger for up to 25 minutes and
 * the tests were skipped when it gave up); Jaeger stays for its UI ({@code JaegerUiTest}, {@code
 * ./gateway demo --tracing}).
 */
final class OtlpReceiver implements AutoCloseable {

  private final Vertx vertx = Vertx.vertx();
  private final Map<String, List<TraceSpan>> traces = new HashMap<>();
  private int requests;
  private HttpServer server;

  private OtlpReceiver() {}

  /**
   * @return a receiver listening on a free port of 127.0.0.1
   */
  static OtlpReceiver start() {
    OtlpReceiver receiver = new OtlpReceiver();
    receiver.server =
        receiver
            .vertx
            .createHttpServer()
            .requestHandler(receiver::handle)
            .listen(0, "127.0.0.1")
            .await();
    return receiver;
  }

  /**
   * @return the base URL to give the gateway's {@code --tracing.endpoint}
   */
  String endpoint() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  private void handle(HttpServerRequest req) {
    if (!"/v1/traces".equals(req.path())) {
      req.response().setStatusCode(404).end();
      return;
    }
    req.body()
        .onSuccess(
            body -> {
              try {
                keep(OtlpSpans.decode(bytes(body, req.getHeader("Content-Encoding"))));
                // an empty ExportTraceServiceResponse: every span accepted
                req.response().putHeader("Content-Type", "application/x-protobuf").end();
              } catch (RuntimeException e) {
                req.response().setStatusCode(400).end(e.toString());
              }
            });
  }

  private static byte[] bytes(Buffer body, String encoding) {
    if (!"gzip".equalsIgnoreCase(encoding)) {
      return body.getBytes();
    }
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body.getBytes()))) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private synchronized void keep(List<OtlpSpans.Received> spans) {
    requests++;
    for (OtlpSpans.Received r : spans) {
      traces.computeIfAbsent(r.traceId(), id -> new ArrayList<>()).add(r.span());
    }
    notifyAll();
  }

  /**
   * Waits until the spans of trace {@code traceId} received so far are {@code complete}.
   *
   * @return them, by start time
   * @throws IllegalStateException naming what arrived if they are not complete within {@code
   *     timeout}
   */
  synchronized List<TraceSpan> trace(
      String traceId, Predicate<List<TraceSpan>> complete, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<TraceSpan> spans = new ArrayList<>(traces.getOrDefault(traceId, List.of()));
      spans.sort(Comparator.comparingLong(TraceSpan::startMicros));
      if (complete.test(spans)) {
        return spans;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new IllegalStateException(
            "trace "
                + traceId
                + " incomplete after "
                + timeout
                + ": "
                + spans.size()
                + " spans of it in "
                + requests
                + " export requests ("
                + traces.size()
                + " traces)");
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  @Override
  public void close() {
    vertx.close().await();
  }
}
