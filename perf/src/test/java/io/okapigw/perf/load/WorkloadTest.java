package io.okapigw.perf.load;

import static io.okapigw.perf.load.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.OnContext;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The circulation desk's pairs against a circulation module that keeps loans: an operation that
 * failed without saying whether it was done leaves no item in a state that fails the next one.
 */
class WorkloadTest {

  private static final BarcodeRow A = new BarcodeRow("item-a", "user", "desk");
  private static final BarcodeRow B = new BarcodeRow("item-b", "user", "desk");

  private Vertx vertx;
  private final Set<String> onLoan = ConcurrentHashMap.newKeySet();
  private final List<String> calls = new CopyOnWriteArrayList<>();

  /** The status the next check-out answers after writing its loan; 201 once it has been used. */
  private volatile int nextCheckOutStatus = 201;

  private URI circulation;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    HttpServer server =
        await(
            vertx
                .createHttpServer()
                .requestHandler(
                    req ->
                        req.body()
                            .onSuccess(
                                body -> {
                                  String item = body.toJsonObject().getString("itemBarcode");
                                  calls.add(req.path() + " " + item);
                                  req.response()
                                      .setStatusCode(circulate(req.path(), item))
                                      .end("{}");
                                }))
                .listen(0, "127.0.0.1"));
    circulation = URI.create("http://127.0.0.1:" + server.actualPort());
  }

  @AfterEach
  void stop() throws Exception {
    await(vertx.close());
  }

  /** As mod-circulation: 422 for an item already on loan, or not on loan at check-in. */
  private int circulate(String path, String item) {
    if (path.equals(Workload.CHECK_IN)) {
      return onLoan.remove(item) ? 200 : 422;
    }
    if (!onLoan.add(item)) {
      return 422;
    }
    int status = nextCheckOutStatus;
    nextCheckOutStatus = 201;
    return status;
  }

  /** {@code n} pairs of the user in turn, made on a Vert.x context. */
  private Future<Void> pairs(Workload workload, VirtualUser user, PhaseStats stats, int n) {
    return OnContext.run(
        vertx,
        () -> {
          Future<Void> chain = Future.succeededFuture();
          for (int i = 0; i < n; i++) {
            chain = chain.compose(x -> workload.pair(user, stats));
          }
          return chain;
        });
  }

  @Test
  void pair_checkOut504AfterTheLoanWasWritten_itemCheckedInAndNoLaterOperationFails()
      throws Exception {
    Gateways gateways =
        new Gateways(vertx, List.of(circulation), "diku", 1, port -> OptionalLong.empty());
    Workload workload = new Workload(gateways, new ErrorLog(), u -> Future.succeededFuture());
    VirtualUser user = new VirtualUser(0, List.of(A, B), 1);
    PhaseStats stats = PhaseStats.create();
    nextCheckOutStatus = 504;

    await(pairs(workload, user, stats, 4));

    assertThat(stats.checkOut().errorKinds())
        .as("the 504 is the only failure: no 422 for the item it left on loan")
        .isEqualTo(Map.of("504", 1L));
    assertThat(stats.checkIn().errorKinds()).isEmpty();
    assertThat(calls)
        .as("after the 504 the item is checked in, then left out of the run")
        .containsExactly(
            Workload.CHECK_OUT + " item-a",
            Workload.CHECK_IN + " item-a",
            Workload.CHECK_OUT + " item-b",
            Workload.CHECK_IN + " item-b",
            Workload.CHECK_OUT + " item-b",
            Workload.CHECK_IN + " item-b",
            Workload.CHECK_OUT + " item-b",
            Workload.CHECK_IN + " item-b");
    assertThat(onLoan).isEmpty();
    await(gateways.close());
  }

  @Test
  void pair_checkOutRefused422_itemNotCheckedInAndKeptInTheRun() throws Exception {
    Gateways gateways =
        new Gateways(vertx, List.of(circulation), "diku", 1, port -> OptionalLong.empty());
    Workload workload = new Workload(gateways, new ErrorLog(), u -> Future.succeededFuture());
    VirtualUser user = new VirtualUser(0, List.of(A, B), 1);
    PhaseStats stats = PhaseStats.create();
    onLoan.add("item-a");

    await(pairs(workload, user, stats, 3));

    assertThat(stats.checkOut().errorKinds()).isEqualTo(Map.of("422", 2L));
    assertThat(calls)
        .as("a refusal changed nothing: nothing to reconcile, the item stays in the run")
        .containsExactly(
            Workload.CHECK_OUT + " item-a",
            Workload.CHECK_OUT + " item-b",
            Workload.CHECK_IN + " item-b",
            Workload.CHECK_OUT + " item-a");
    await(gateways.close());
  }
}
