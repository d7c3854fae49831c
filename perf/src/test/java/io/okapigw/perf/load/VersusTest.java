package io.okapigw.perf.load;

import static io.okapigw.perf.load.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --vs} against two stand-in gateways without {@code /_/metrics} (as Okapi): both are
 * loaded, one at a time, in interleaved slices, and each gets its own report.
 */
class VersusTest {

  private static final List<BarcodeRow> ROWS =
      List.of(
          new BarcodeRow("i1", "u1", "sp"),
          new BarcodeRow("i2", "u2", "sp"),
          new BarcodeRow("i3", "u3", "sp"),
          new BarcodeRow("i4", "u4", "sp"));

  private Vertx vertx;

  /** Which gateway served each check-out and check-in, in the order they arrived. */
  private final List<String> served = Collections.synchronizedList(new ArrayList<>());

  private String a;
  private String b;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    a = "http://127.0.0.1:" + listen("A");
    b = "http://127.0.0.1:" + listen("B");
  }

  @AfterEach
  void stop() throws Exception {
    await(vertx.close());
  }

  private int listen(String name) throws Exception {
    return await(
            vertx
                .createHttpServer()
                .requestHandler(req -> req.body().onSuccess(body -> answer(name, req)))
                .listen(0, "127.0.0.1"))
        .actualPort();
  }

  private void answer(String name, HttpServerRequest req) {
    switch (req.path()) {
      case "/authn/login" ->
          req.response().setStatusCode(201).putHeader("X-Okapi-Token", "t-" + name).end("{}");
      case Workload.CHECK_OUT -> {
        served.add(name);
        req.response().setStatusCode(201).end("{}");
      }
      case Workload.CHECK_IN -> {
        served.add(name);
        req.response().setStatusCode(200).end("{}");
      }
      default -> req.response().setStatusCode(404).end();
    }
  }

  /**
   * @return the names of consecutive blocks of requests at one gateway: A, B, A, ...
   */
  private List<String> blocks() {
    List<String> blocks = new ArrayList<>();
    synchronized (served) {
      for (String name : served) {
        if (blocks.isEmpty() || !blocks.get(blocks.size() - 1).equals(name)) {
          blocks.add(name);
        }
      }
    }
    return blocks;
  }

  @Test
  void run_twoGateways_measuresThemInInterleavedSlicesOneAtATime() throws Exception {
    LoadOptions options =
        LoadOptions.from(
            LoadOptions.SPEC.read(
                List.of(
                    "--gateway",
                    a,
                    "--vs",
                    b,
                    "--users",
                    "2",
                    "--duration",
                    "2s",
                    "--slices",
                    "2",
                    "--warmup",
                    "0s",
                    "--max-operations",
                    "100000",
                    "--items",
                    "4")));

    List<RunReport> reports = await(Versus.run(vertx, options, ROWS));

    assertThat(blocks())
        .as("slices: A, B, A, B; never both at once")
        .containsExactly("A", "B", "A", "B");
    assertThat(reports).extracting(RunReport::mode).containsExactly(Versus.GATEWAY, Versus.VS);
    assertThat(reports)
        .allSatisfy(
            r -> {
              assertThat(r.errors()).isZero();
              assertThat(r.both().count()).isPositive();
              assertThat(r.metricsKnown()).isFalse();
            });
    long atA = served.stream().filter("A"::equals).count();
    assertThat(reports.get(0).both().count()).isEqualTo(atA);
    assertThat(reports.get(0).plan().gateways()).extracting(Object::toString).containsExactly(a);
    assertThat(reports.get(1).plan().gateways()).extracting(Object::toString).containsExactly(b);
  }
}
