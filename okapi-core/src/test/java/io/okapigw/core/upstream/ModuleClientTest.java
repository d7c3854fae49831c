package io.okapigw.core.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.routing.Instances;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The one module client: a pool per event loop, every call told to the observer, failures mapped
 * once, system calls under the instance's path, health checks on connections of their own.
 */
class ModuleClientTest {

  private Vertx vertx;
  private HttpServer module;
  private final AtomicInteger connections = new AtomicInteger();
  private final List<String> paths = new CopyOnWriteArrayList<>();
  private final List<String> observed = new CopyOnWriteArrayList<>();
  private ModuleClient client;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
    module =
        vertx
            .createHttpServer()
            .connectionHandler(c -> connections.incrementAndGet())
            .requestHandler(
                req -> {
                  paths.add(req.path());
                  req.response().end("ok");
                })
            .listen(0, "127.0.0.1")
            .await();
    // pooled connections reused at once: the calls here come faster than proxy.reuse-quiet
    client =
        ModuleClient.create(
            vertx, UpstreamOptions.defaults().withReuseQuiet(Duration.ZERO), new Recorder());
  }

  @AfterEach
  void stop() {
    client.close().await();
    vertx.close().await();
  }

  @Test
  void callsFromTwoEventLoops_aPoolEach_reusedOnItsOwnLoop() throws Exception {
    List<Context> loops = twoEventLoops();
    get(loops.get(0), instances(url()));
    get(loops.get(1), instances(url()));
    get(loops.get(0), instances(url()));
    get(loops.get(1), instances(url()));
    // one client shared by the loops would have reused one connection for all four calls
    assertThat(connections.get()).isEqualTo(2);
  }

  @Test
  void saturatedPool_usesTheConnectionIdleLongest_noConnectPerCall() throws Exception {
    UpstreamOptions d = UpstreamOptions.defaults();
    client.close().await();
    // one connection at most, and a window no call here waits out
    client =
        ModuleClient.create(
            vertx,
            new UpstreamOptions(
                d.connectTimeout(),
                d.idleTimeout(),
                1,
                d.maxHeaderSize(),
                Map.of(),
                d.balance(),
                Duration.ofMinutes(10)),
            new Recorder());
    Context loop = twoEventLoops().get(0);
    get(loop, instances(url()));
    get(loop, instances(url()));
    get(loop, instances(url()));
    // the pool once closed its one idle connection for a new one on every call past the first
    assertThat(connections.get()).isEqualTo(1);
    assertThat(paths).hasSize(3);
  }

  @Test
  void everyCall_toldToTheObserver_withItsKindAndOutcome() throws Exception {
    get(vertx.getOrCreateContext(), instances(url()));
    Throwable refused = failure(vertx.getOrCreateContext(), instances("http://127.0.0.1:1"));
    assertThat(refused).isInstanceOf(HttpError.class);
    assertThat(((HttpError) refused).status()).isEqualTo(502);
    assertThat(refused.getMessage())
        .isEqualTo(
            "system call GET /_/tenant to module mod-a-1.0.0 at http://127.0.0.1:1"
                + " could not be reached: connection refused");
    assertThat(observed)
        .containsExactly(
            "opened system mod-a-1.0.0", "answered system 200", "failed system mod-a-1.0.0");
  }

  @Test
  void moduleWithoutInstance_502NamingIt() throws Exception {
    Throwable none = failure(vertx.getOrCreateContext(), Instances.of("mod-a-1.0.0", List.of()));
    assertThat(((HttpError) none).status()).isEqualTo(502);
    assertThat(none.getMessage()).contains("module mod-a-1.0.0 has no running instance");
  }

  @Test
  void systemCall_goesUnderTheInstancesPath() throws Exception {
    get(vertx.getOrCreateContext(), instances(url() + "/base/"));
    assertThat(paths).containsExactly("/base/_/tenant");
  }

  @Test
  void probe_connectsEachTime_neverPooled() throws Exception {
    Endpoint instance = Endpoint.parse(url());
    for (int i = 0; i < 3; i++) {
      await(() -> client.probe("mod-a-1.0.0", instance, Duration.ofSeconds(5)));
    }
    assertThat(connections.get()).isEqualTo(3);
    assertThat(paths).containsExactly("/", "/", "/");
  }

  private String url() {
    return "http://127.0.0.1:" + module.actualPort();
  }

  private static Instances instances(String url) {
    return Instances.of("mod-a-1.0.0", List.of(url));
  }

  /** Contexts on the two event loops (new contexts are spread over the loops, round-robin). */
  private List<Context> twoEventLoops() {
    ContextInternal first = ((VertxInternal) vertx).createEventLoopContext();
    ContextInternal second = ((VertxInternal) vertx).createEventLoopContext();
    assertThat(second.nettyEventLoop()).isNotSameAs(first.nettyEventLoop());
    return List.of(first, second);
  }

  private void get(Context context, Instances instances) throws Exception {
    await(
        context,
        () ->
            client
                .open(CallKind.SYSTEM, instances, HttpMethod.GET, "/_/tenant", 5000)
                .compose(call -> call.exchange(null, status -> 100)));
  }

  private Throwable failure(Context context, Instances instances) throws Exception {
    Promise<Throwable> failed = Promise.promise();
    context.runOnContext(
        v ->
            client
                .open(CallKind.SYSTEM, instances, HttpMethod.GET, "/_/tenant", 5000)
                .onComplete(done -> failed.complete(done.cause())));
    return failed.future().await(1, TimeUnit.MINUTES);
  }

  private <T> T await(Supplier<Future<T>> call) throws Exception {
    return await(vertx.getOrCreateContext(), call);
  }

  private static <T> T await(Context context, Supplier<Future<T>> call) throws Exception {
    Promise<T> done = Promise.promise();
    context.runOnContext(v -> call.get().onComplete(done));
    return done.future().await(1, TimeUnit.MINUTES);
  }

  /** Writes down what the observer is told. */
  private final class Recorder implements CallObserver {
    @Override
    public void opened(ModuleCall call) {
      observed.add("opened " + call.kind().tag() + " " + call.moduleId());
    }

    @Override
    public void answered(ModuleCall call, int status) {
      observed.add("answered " + call.kind().tag() + " " + status);
    }

    @Override
    public void failed(ModuleCall call, Throwable failure) {
      observed.add("failed " + call.kind().tag() + " " + call.moduleId());
    }
  }
}
