package io.okapigw.it.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.demo.Library;
import io.okapigw.demo.TraceSpan;
import io.okapigw.demo.TracedCheckOut;
import io.okapigw.it.LibraryOnCluster;
import io.okapigw.testsupport.process.GatewayCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A check-out through three gateway nodes in JVMs of their own, exporting over OTLP/HTTP to a
 * receiver in this JVM ({@link OtlpReceiver}: no Jaeger build needed, so it runs everywhere): one
 * trace, the client's request and its 33 module-to-module calls as 34 server spans, each call a
 * client span, every parent right, the auth outcomes told. The same in Jaeger's UI: {@link
 * JaegerUiTest}.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class TracingClusterTest {

  /** The check-out's calls to other modules (folio-modules' {@code CheckOut.CALLS}). */
  static final int CALLS = 33;

  @TempDir static Path dir;

  private static OtlpReceiver receiver;
  private static LibraryOnCluster env;
  private static GatewayCluster cluster;
  private static Library library;

  @BeforeAll
  static void start() throws Exception {
    receiver = OtlpReceiver.start();
    env =
        LibraryOnCluster.start(
            3,
            List.of("--tracing.enabled", "true", "--tracing.endpoint", receiver.endpoint()),
            20,
            dir);
    cluster = env.cluster();
    library = env.library();
  }

  @AfterAll
  static void stop() throws Exception {
    if (env != null) {
      env.close();
    }
    if (receiver != null) {
      receiver.close();
    }
  }

  @Test
  void checkOut_oneTraceExported_34GatewayHops_rightParents_authOutcomes() throws Exception {
    TracedCheckOut desk = TracedCheckOut.login(cluster.url(1), true);
    List<TraceSpan> cold = read(desk.checkOutAndIn(library.data(), 0));
    assertHops(cold);
    List<TraceSpan> warm = read(desk.checkOutAndIn(library.data(), 1));
    assertHops(warm);

    long coldAuthCalls = calls(cold, "auth");
    assertThat(coldAuthCalls)
        .as("every miss is one auth call")
        .isEqualTo(servers(cold).stream().filter(s -> "miss".equals(s.authOutcome())).count());
    assertThat(calls(warm, "auth"))
        .as("the second check-out's decisions come from the cache")
        .isLessThan(coldAuthCalls);
    assertThat(servers(warm)).anyMatch(s -> "hit".equals(s.authOutcome()));
    assertThat(servers(cold))
        .allSatisfy(s -> assertThat(s.authOutcome()).isIn("hit", "miss", "coalesced", "stale"));
  }

  /** The gateway's spans of one check-out: 34 requests served, each one handler call. */
  static void assertHops(List<TraceSpan> spans) {
    Map<String, TraceSpan> byId =
        spans.stream().collect(Collectors.toMap(TraceSpan::id, Function.identity()));
    List<TraceSpan> servers = servers(spans);
    assertThat(servers).hasSize(CALLS + 1);
    assertThat(calls(spans, "handler")).isEqualTo(CALLS + 1);
    List<TraceSpan> roots = servers.stream().filter(s -> !byId.containsKey(s.parentId())).toList();
    assertThat(roots)
        .as("one request from outside (its parent the desk's span, not exported)")
        .hasSize(1);
    assertThat(roots.get(0).name()).isEqualTo("POST /circulation/check-out-by-barcode");
    assertThat(servers)
        .filteredOn(s -> s != roots.get(0))
        .allSatisfy(
            s -> assertThat(byId.get(s.parentId()).callKind()).as(s.name()).isEqualTo("handler"));
    assertThat(spans)
        .filteredOn(s -> !s.isServer())
        .allSatisfy(s -> assertThat(byId.get(s.parentId()).isServer()).as(s.name()).isTrue());
    assertThat(servers).allSatisfy(s -> assertThat(s.tags()).containsEntry("okapi.tenant", "diku"));
  }

  private List<TraceSpan> read(String traceId) throws Exception {
    return receiver.trace(
        traceId, spans -> servers(spans).size() >= CALLS + 1, Duration.ofSeconds(60));
  }

  private static List<TraceSpan> servers(List<TraceSpan> spans) {
    return spans.stream().filter(TraceSpan::isServer).toList();
  }

  private static long calls(List<TraceSpan> spans, String kind) {
    return spans.stream().filter(s -> kind.equals(s.callKind())).count();
  }
}
