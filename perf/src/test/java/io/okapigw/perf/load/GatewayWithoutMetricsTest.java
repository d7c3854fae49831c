package io.okapigw.perf.load;

import static io.okapigw.perf.load.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The load driver against a gateway without {@code /_/metrics}, as Okapi (404): it loads it all the
 * same and reports auth calls as unknown, having asked for the metrics once; its CPU is what the
 * kernel charged the process listening on its port (here this JVM).
 */
class GatewayWithoutMetricsTest {

  private static final List<BarcodeRow> ROWS =
      List.of(
          new BarcodeRow("i1", "u1", "sp"),
          new BarcodeRow("i2", "u2", "sp"),
          new BarcodeRow("i3", "u3", "sp"),
          new BarcodeRow("i4", "u4", "sp"));

  private Vertx vertx;
  private URI okapi;
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    okapi =
        URI.create(
            "http://127.0.0.1:"
                + await(
                        vertx
                            .createHttpServer()
                            .requestHandler(req -> req.body().onSuccess(b -> answer(req)))
                            .listen(0, "127.0.0.1"))
                    .actualPort());
  }

  @AfterEach
  void stop() throws Exception {
    await(vertx.close());
  }

  /** Okapi's answers: 404 text for {@code /_/metrics}, the module's for the rest. */
  private void answer(HttpServerRequest req) {
    calls.computeIfAbsent(req.path(), p -> new AtomicInteger()).incrementAndGet();
    switch (req.path()) {
      case "/authn/login" ->
          req.response().setStatusCode(201).putHeader("X-Okapi-Token", "t").end("{}");
      case Workload.CHECK_OUT -> req.response().setStatusCode(201).end("{}");
      case Workload.CHECK_IN -> req.response().setStatusCode(200).end("{}");
      default ->
          req.response().setStatusCode(404).putHeader("Content-Type", "text/plain").end(req.path());
    }
  }

  private RunReport run() throws Exception {
    LoadPlan plan =
        new LoadPlan(
            List.of(okapi),
            "diku",
            "diku_admin",
            "admin",
            2,
            Duration.ZERO,
            Duration.ofMinutes(10),
            2,
            20);
    return await(LoadDriver.run(vertx, plan, ROWS, okapi.toString()));
  }

  @Test
  void run_gatewayWithoutMetrics_loadsWithoutErrorsAndAsksForMetricsOnce() throws Exception {
    RunReport report = run();

    assertThat(report.errors()).as("errors: %s", report.firstErrors()).isZero();
    assertThat(report.both().count()).isEqualTo(20);
    assertThat(calls.get("/_/metrics")).hasValue(1);
    assertThat(report.downGateways()).isEmpty();
  }

  @Test
  void run_gatewayWithoutMetrics_reportsAuthCallsUnknownCpuFromProcAndRunsNoProbe()
      throws Exception {
    RunReport report = run();

    assertThat(report.metricsKnown()).isFalse();
    assertThat(report.withoutMetrics()).containsExactly(okapi + " (GET /_/metrics answered 404)");
    assertThat(report.authCallsPerOperation()).isNaN();
    assertThat(report.gatewayCpuMsPerOperation()).isNotNaN().isNotNegative();
    assertThat(report.cpuSource()).startsWith("/proc/PID/stat of pid ");
    assertThat(report.probe()).isEqualTo(AuthProbe.Result.NONE);
    assertThat(calls.get(Workload.CHECK_OUT).get())
        .as("no probe check-outs")
        .isEqualTo(report.checkOut().count());
  }

  @Test
  void report_gatewayWithoutMetrics_printsAuthCallsNotAvailableAndWhy() throws Exception {
    RunReport report = run();

    assertThat(ReportTable.single(report).lines().skip(2))
        .allSatisfy(row -> assertThat(row).endsWith("| 0 | n/a |"));
    assertThat(ReportTable.authNote(report))
        .startsWith("auth calls/op: n/a")
        .contains(okapi + " (GET /_/metrics answered 404)");
    assertThat(ReportTable.cpuNote(report))
        .startsWith("gateway CPU: ")
        .contains("ms per operation (all its JVMs; /proc/PID/stat of pid ");
  }
}
