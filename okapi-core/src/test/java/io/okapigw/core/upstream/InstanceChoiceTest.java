package io.okapigw.core.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.core.http.Framing;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.routing.Instances;
import io.okapigw.core.upstream.balance.BalanceOptions;
import io.okapigw.core.upstream.balance.Balancer;
import io.okapigw.core.upstream.balance.InstanceView;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The module client's instance choice with real instances (Vert.x servers) and the balancer's clock
 * faked: a dead instance costs no failed call and is ejected; back after its back-off, not before;
 * the retry budget caps retries.
 */
class InstanceChoiceTest {

  private static final String MODULE = "mod-a-1.0.0";

  private Vertx vertx;
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final AtomicInteger failedCalls = new AtomicInteger();
  private final List<HttpServerRequest> held = new CopyOnWriteArrayList<>();
  private ModuleClient client;
  private Balancer balancer;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close().await();
    }
    vertx.close().await();
  }

  private void client(BalanceOptions options) {
    balancer = Balancer.create(options, now::get, registry);
    CallObserver counting =
        new CallObserver() {
          @Override
          public void failed(ModuleCall call, Throwable failure) {
            failedCalls.incrementAndGet();
          }
        };
    client =
        ModuleClient.create(
            vertx, UpstreamOptions.defaults().withBalance(options), counting, balancer);
  }

  private HttpServer server(int port, AtomicInteger requests) {
    return vertx
        .createHttpServer()
        .requestHandler(
            req -> {
              requests.incrementAndGet();
              req.response().end("ok");
            })
        .listen(port, "127.0.0.1")
        .await();
  }

  private int deadPort() {
    return FreePorts.closed();
  }

  private static String url(int port) {
    return "http://127.0.0.1:" + port;
  }

  private Future<Integer> get(Instances instances) {
    return client
        .open(CallKind.SYSTEM, instances, HttpMethod.GET, "/x", 5000)
        .compose(call -> call.exchange(null, status -> 10))
        .map(ModuleCall.Answer::status);
  }

  private <T> T await(Supplier<Future<T>> call) throws Exception {
    Promise<T> done = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> call.get().onComplete(done));
    return done.future().await(1, TimeUnit.MINUTES);
  }

  private void calls(Instances instances, int count) throws Exception {
    for (int i = 0; i < count; i++) {
      assertThat(await(() -> get(instances))).isEqualTo(200);
    }
  }

  private InstanceView view(int port) {
    return balancer.view(MODULE, Endpoint.parse(url(port)));
  }

  @Test
  void deadInstance_noCallFails_ejectedAfterItsFailures_thenNotTried() throws Exception {
    client(BalanceOptions.defaults().withFailures(2));
    AtomicInteger live = new AtomicInteger();
    int livePort = server(0, live).actualPort();
    int dead = deadPort();
    Instances instances = Instances.of(MODULE, List.of(url(dead), url(livePort)));
    calls(instances, 20);
    assertThat(live.get()).isEqualTo(20);
    assertThat(failedCalls.get()).as("refused connections, each retried").isEqualTo(2);
    assertThat(view(dead).ejected()).isTrue();
    assertThat(registry.get("okapi.module.retries").counter().count()).isEqualTo(2);
    assertThat(registry.get("okapi.module.ejections").tag("instance", url(dead)).counter().count())
        .isEqualTo(1);
  }

  @Test
  void returningInstance_takenBackAfterTheBackOff_notBefore() throws Exception {
    client(BalanceOptions.defaults().withFailures(2));
    AtomicInteger first = new AtomicInteger();
    int livePort = server(0, first).actualPort();
    int port = deadPort();
    Instances instances = Instances.of(MODULE, List.of(url(port), url(livePort)));
    calls(instances, 4);
    assertThat(view(port).ejected()).isTrue();
    AtomicInteger returned = new AtomicInteger();
    server(port, returned);
    calls(instances, 6);
    assertThat(returned.get()).as("still ejected: not called").isZero();
    now.addAndGet(Duration.ofSeconds(2).toNanos());
    calls(instances, 6);
    assertThat(returned.get()).as("back after 2 s").isEqualTo(3);
    assertThat(view(port).ejected()).isFalse();
    assertThat(view(port).onProbation()).isFalse();
  }

  @Test
  void activeCheck_findsTheReturnedInstanceAnswering_takesItBackBeforeItsBackOff()
      throws Exception {
    client(BalanceOptions.defaults().withFailures(2).withCheckInterval(Duration.ofDays(1)));
    int livePort = server(0, new AtomicInteger()).actualPort();
    int port = deadPort();
    Instances instances = Instances.of(MODULE, List.of(url(port), url(livePort)));
    calls(instances, 4);
    assertThat(view(port).ejected()).isTrue();
    await(() -> client.checks().round());
    assertThat(view(port).ejected()).as("a failed check: still ejected").isTrue();
    AtomicInteger returned = new AtomicInteger();
    server(port, returned);
    await(() -> client.checks().round());
    assertThat(view(port).ejected()).isFalse();
    calls(instances, 4);
    assertThat(returned.get()).as("the check, then two calls, the clock unmoved").isEqualTo(3);
  }

  @Test
  void activeChecks_runEveryInterval_failuresEject() throws Exception {
    client(BalanceOptions.defaults().withFailures(3).withCheckInterval(Duration.ofMillis(20)));
    int livePort = server(0, new AtomicInteger()).actualPort();
    int port = deadPort();
    Instances instances = Instances.of(MODULE, List.of(url(port), url(livePort)));
    // one call (to the dead instance first, retried on the live one) makes the module known; its
    // failure is one of three: the checks' failures make the others
    calls(instances, 1);
    Await.until(() -> view(port).ejected(), "the instance ejected");
    assertThat(failedCalls.get())
        .as("failed calls, the checks' included")
        .isGreaterThanOrEqualTo(3);
  }

  /**
   * A dead instance refuses at once, so it looks the least busy and each new call tries it first:
   * sending those calls on to the live instance must not use up the retry budget (they reached no
   * module), or a few concurrent calls fail while it is being ejected.
   */
  @Test
  void deadInstance_refusalsSentElsewhere_notChargedToTheRetryBudget() throws Exception {
    client(BalanceOptions.defaults().withFailures(0).withRetryBudget(0, 1));
    int slowPort = holding();
    int dead = deadPort();
    Instances instances = Instances.of(MODULE, List.of(url(dead), url(slowPort)));
    List<Future<Integer>> calls = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 3; i++) {
      call(instances, calls, this::get);
    }
    assertThat(held).hasSize(3);
    assertThat(failures(calls)).isZero();
    assertThat(registry.find("okapi.module.retry.budget.exhausted").counter()).isNull();
    assertThat(registry.get("okapi.module.retries").counter().count()).isEqualTo(3);
    held.forEach(req -> req.response().end());
  }

  @Test
  void retryBudget_exhausted_failureAnswered_namingTheInstance() throws Exception {
    // one retry in flight at most, whatever the load
    client(BalanceOptions.defaults().withFailures(0).withRetryBudget(0, 1));
    int slowPort = holding();
    int resetting =
        vertx
            .createHttpServer()
            .requestHandler(req -> req.connection().close())
            .listen(0, "127.0.0.1")
            .await()
            .actualPort();
    Instances instances = Instances.of(MODULE, List.of(url(resetting), url(slowPort)));
    List<Future<Integer>> calls = new CopyOnWriteArrayList<>();
    // the first reaches the resetting instance (round-robin from the first), is sent again to the
    // slow one and held there; the next two find the resetting one (fewer calls in flight) and no
    // retry left
    for (int i = 0; i < 3; i++) {
      call(instances, calls, this::getResending);
    }
    assertThat(held).hasSize(1);
    assertThat(failures(calls)).isEqualTo(2);
    Throwable failure = calls.stream().filter(Future::failed).findFirst().orElseThrow().cause();
    assertThat(((HttpError) failure).status()).isEqualTo(502);
    assertThat(failure.getMessage()).contains(url(resetting));
    assertThat(registry.get("okapi.module.retry.budget.exhausted").counter().count()).isEqualTo(2);
    // the retry answered gives its place back: the next call's retry goes
    held.remove(0).response().end();
    Await.until(() -> calls.get(0).succeeded(), "the first call answered");
    call(instances, calls, this::getResending);
    assertThat(held).hasSize(1);
    assertThat(failures(calls)).isEqualTo(2);
    held.forEach(req -> req.response().end());
  }

  /** An instance that holds every request it gets (in {@link #held}) until the test answers it. */
  private int holding() {
    return vertx
        .createHttpServer()
        .requestHandler(held::add)
        .listen(0, "127.0.0.1")
        .await()
        .actualPort();
  }

  /**
   * A GET sent, as the proxy does, to another instance if its connection breaks before any answer.
   */
  private Future<Integer> getResending(Instances instances) {
    return client
        .open(CallKind.HANDLER, instances, HttpMethod.GET, "/x", 5000)
        .compose(
            call -> {
              call.sendHead(Framing.NONE);
              call.end();
              return call.answered()
                  .map(ModuleCall.Head::status)
                  .recover(
                      e ->
                          client
                              .reopen(call, e)
                              .compose(next -> next.exchange(null, status -> 10))
                              .map(ModuleCall.Answer::status));
            });
  }

  /** Makes a call, and waits until it failed or the slow instance holds it. */
  private void call(
      Instances instances, List<Future<Integer>> calls, Function<Instances, Future<Integer>> get)
      throws Exception {
    int before = held.size() + (int) failures(calls);
    Promise<Void> sent = Promise.promise();
    vertx
        .getOrCreateContext()
        .runOnContext(
            v -> {
              calls.add(get.apply(instances));
              sent.complete();
            });
    sent.future().await();
    Await.until(() -> held.size() + failures(calls) == before + 1, "one more call held or failed");
  }

  private static long failures(List<Future<Integer>> calls) {
    return calls.stream().filter(Future::failed).count();
  }
}
