package io.okapigw.core.tenantinit;

import static io.okapigw.core.testing.TenantApiModule.descriptor;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.OnContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One {@code _tenant} operation at a time per tenant and module, as the module sees them: a retry
 * after the gateway gave up on a 2.0 job ({@code tenant.init-timeout}, or its node died: a record
 * of a node no longer a member) waits for that job before it calls again. The module counts the
 * operations it runs at once (from a POST until its job completes). The init timeout runs on a
 * {@link FakeScheduler} that the module moves on at each poll while the test says so.
 */
class TenantOperationsTest {

  private static final String MODULE = "mod-a-1.0.0";
  private static final String TENANT_MODULES = "/_/proxy/tenants/diku/modules";

  private final FakeScheduler scheduler = new FakeScheduler(Instant.parse("2026-01-01T00:00:00Z"));
  private GatewayFixture gw;

  private final AtomicInteger posts = new AtomicInteger();
  private final Set<String> running = ConcurrentHashMap.newKeySet();
  private final AtomicInteger mostAtOnce = new AtomicInteger();
  private final Map<String, AtomicInteger> polls = new ConcurrentHashMap<>();
  private final Set<String> held = ConcurrentHashMap.newKeySet();
  private final Set<String> released = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean clockMovesOnPoll = new AtomicBoolean();

  @BeforeEach
  void start() {
    gw =
        new GatewayFixture(
            GatewayOptions.defaults(0)
                .withTenantInit(
                    new TenantInitOptions(Duration.ofSeconds(60), Duration.ofMillis(2))),
            scheduler);
    gw.createTenant("diku");
    Router router = Router.router(gw.vertx());
    router.post("/_/tenant").handler(this::post);
    router.get("/_/tenant/:id").handler(this::poll);
    router.delete("/_/tenant/:id").handler(ctx -> ctx.response().setStatusCode(204).end());
    HttpServer module =
        gw.vertx().createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
    gw.addModule(descriptor(MODULE, "2.0", null, null));
    gw.deploy(MODULE, "http://127.0.0.1:" + module.actualPort());
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  /** Starts job {@code job-N}; a held job runs until released, the others complete when polled. */
  private void post(RoutingContext ctx) {
    String id = "job-" + posts.incrementAndGet();
    started(id);
    ctx.response()
        .setStatusCode(201)
        .putHeader("Location", "/_/tenant/" + id)
        .putHeader("Content-Type", "application/json")
        .end(new JsonObject().put("id", id).put("complete", false).encode());
  }

  private void started(String id) {
    running.add(id);
    mostAtOnce.accumulateAndGet(running.size(), Math::max);
  }

  private void poll(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    polls(id).incrementAndGet();
    if (clockMovesOnPoll.get()) {
      scheduler.advance(Duration.ofSeconds(20));
    }
    boolean complete = running.contains(id) && (!held.contains(id) || released.contains(id));
    if (complete) {
      running.remove(id);
    }
    ctx.response()
        .putHeader("Content-Type", "application/json")
        .end(new JsonObject().put("id", id).put("complete", complete).encode());
  }

  private AtomicInteger polls(String id) {
    return polls.computeIfAbsent(id, k -> new AtomicInteger());
  }

  private Future<Integer> enableOnContext() {
    HttpClient client = gw.vertx().createHttpClient();
    return OnContext.run(
        gw.vertx(),
        () ->
            client
                .request(HttpMethod.POST, gw.gateway().port(), "localhost", TENANT_MODULES)
                .compose(
                    req ->
                        req.send(new JsonObject().put("id", MODULE).encode())
                            .compose(res -> res.body().map(b -> res.statusCode()))));
  }

  private static int await(Future<Integer> status) throws Exception {
    return status.toCompletionStage().toCompletableFuture().get(2, TimeUnit.MINUTES);
  }

  /**
   * The retry must not call while job {@code job} runs: it either polls that job (the fix) or posts
   * again (the bug); wait for either, then check which.
   */
  private void retryWaitsFor(String job, int pollsBefore) {
    Await.until(
        () -> polls(job).get() > pollsBefore || secondPost(job),
        "the retry polls " + job + " or posts again");
    assertThat(mostAtOnce).as("operations the module ran at once").hasValue(1);
  }

  private boolean secondPost(String job) {
    return posts.get() > (job.equals("job-0") ? 0 : 1);
  }

  @Test
  void retryAfterTheInitTimeout_waitsForTheJobLeftToTheModule_thenCalls() throws Exception {
    held.add("job-1");
    clockMovesOnPoll.set(true);
    gw.request()
        .body(new JsonObject().put("id", MODULE).encode())
        .post(TENANT_MODULES)
        .then()
        .statusCode(504);
    assertThat(running).as("the job left to the module").containsExactly("job-1");
    clockMovesOnPoll.set(false);
    int pollsBefore = polls("job-1").get();

    Future<Integer> retry = enableOnContext();
    retryWaitsFor("job-1", pollsBefore);
    assertThat(posts).as("no second _tenant call while job-1 runs").hasValue(1);
    released.add("job-1");

    assertThat(await(retry)).isEqualTo(201);
    assertThat(posts).hasValue(2);
    assertThat(mostAtOnce).as("operations the module ran at once").hasValue(1);
  }

  @Test
  void retryAfterItsNodeDied_waitsForTheJobItsRecordNames_thenCallsAndRemovesTheRecord()
      throws Exception {
    held.add("job-0");
    started("job-0");
    AsyncMap<String, JsonObject> records =
        gw.vertx().sharedData().<String, JsonObject>getAsyncMap(TenantOperations.MAP).await();
    String key = TenantOperations.key("diku", MODULE);
    records
        .put(
            key,
            new JsonObject()
                .put("node", "gateway-gone")
                .put("run", "an earlier run")
                .put("job", "/_/tenant/job-0"))
        .await();

    Future<Integer> retry = enableOnContext();
    retryWaitsFor("job-0", 0);
    assertThat(posts).as("no _tenant call while job-0 of the dead node runs").hasValue(0);
    released.add("job-0");

    assertThat(await(retry)).isEqualTo(201);
    assertThat(posts).hasValue(1);
    assertThat(mostAtOnce).as("operations the module ran at once").hasValue(1);
    assertThat(records.get(key).await()).as("the record, once the operation ended").isNull();
  }

  /**
   * Many operations for one key started at once from many contexts, each either seen to its end or
   * given up while the module still runs its job (a random mix, seeded): the module never runs two.
   */
  @Test
  void racingOperations_someLeftToTheModule_neverTwoAtOnce() {
    Vertx vertx = gw.vertx();
    TenantOperations operations =
        new TenantOperations(vertx, Clock.systemUTC(), "node-1", () -> List.of("node-1"));
    Random random = new Random(43);
    AtomicInteger atOnce = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger made = new AtomicInteger();
    Map<String, Promise<Void>> jobs = new ConcurrentHashMap<>();
    List<Future<Void>> all = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      String job = "job-" + i;
      boolean left = random.nextBoolean();
      long work = 1 + random.nextInt(4);
      all.add(
          OnContext.run(
              vertx,
              () ->
                  operations.run(
                      "diku",
                      MODULE,
                      Long.MAX_VALUE,
                      path -> jobs.get(path).future(),
                      op -> {
                        made.incrementAndGet();
                        most.accumulateAndGet(atOnce.incrementAndGet(), Math::max);
                        Promise<Void> running = Promise.promise();
                        running.future().onComplete(x -> atOnce.decrementAndGet());
                        jobs.put(job, running);
                        return op.job(job).compose(v -> answer(vertx, op, running, left, work));
                      })));
    }
    Future.join(all).otherwiseEmpty().toCompletionStage().toCompletableFuture().join();

    assertThat(made).hasValue(200);
    assertThat(most).as("operations running at once").hasValue(1);
  }

  /** The call ends after {@code work} ms: with its job complete, or given up, the job going on. */
  private static Future<Void> answer(
      Vertx vertx, TenantOperations.Operation op, Promise<Void> job, boolean left, long work) {
    Promise<Void> answered = Promise.promise();
    vertx.setTimer(
        work,
        t -> {
          if (left) {
            vertx.setTimer(work, t2 -> job.complete());
            answered.fail("given up");
          } else {
            job.complete();
            op.over();
            answered.complete();
          }
        });
    return answered.future();
  }
}
