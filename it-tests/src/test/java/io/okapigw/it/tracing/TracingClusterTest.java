package io.okapigw.it.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.demo.Jaeger;
import io.okapigw.demo.Library;
import io.okapigw.demo.TraceSpan;
import io.okapigw.demo.TracedCheckOut;
import io.okapigw.it.LibraryOnCluster;
import io.okapigw.it.browser.Chromium;
import io.okapigw.testsupport.process.GatewayCluster;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A check-out through three gateway nodes in JVMs of their own, exporting to a real Jaeger, read
 * back from Jaeger's query API: one trace, the client's request and its 33 module-to-module calls
 * as 34 server spans, each call a client span, every parent right, the auth outcomes told; and the
 * same in Jaeger's UI in a browser. Skipped with a notice where the Jaeger binary is not built
 * ({@link JaegerCheck}).
 */
@ExtendWith(JaegerCheck.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class TracingClusterTest {

  /** The check-out's calls to other modules (folio-modules' {@code CheckOut.CALLS}). */
  private static final int CALLS = 33;

  @TempDir static Path dir;

  private static Jaeger jaeger;
  private static LibraryOnCluster env;
  private static GatewayCluster cluster;
  private static Library library;

  @BeforeAll
  static void start() throws Exception {
    jaeger = JaegerCheck.startJaeger(dir.resolve("jaeger"));
    env =
        LibraryOnCluster.start(
            3,
            List.of("--tracing.enabled", "true", "--tracing.endpoint", jaeger.otlpEndpoint()),
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
    if (jaeger != null) {
      jaeger.close();
    }
  }

  @Test
  void checkOut_oneTraceInJaeger_34GatewayHops_rightParents_authOutcomes() throws Exception {
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

  /**
   * What an operator does: opens the check-out's trace in Jaeger's UI, in a real browser, and sees
   * its 34 hops, each with its handler call. Skipped with a notice where Jaeger serves no UI (a
   * build from the Go module carries none: {@link Jaeger#noUi()}) or there is no Chromium.
   */
  @Test
  void checkOut_inJaegersUi_34Hops() throws Exception {
    String why =
        !jaeger.hasUi()
            ? Jaeger.noUi()
            : Chromium.browser().isEmpty() || Chromium.driver().isEmpty()
                ? "no chromium or chromedriver on the PATH"
                : null;
    if (why != null) {
      System.err.println("NOTICE: Jaeger's UI test skipped: " + why);
      Assumptions.abort(why);
    }
    TracedCheckOut desk = TracedCheckOut.login(cluster.url(2), true);
    String traceId = desk.checkOutAndIn(library.data(), 2);
    List<TraceSpan> spans = read(traceId);
    ChromeDriver browser = Chromium.start(dir.resolve("chromium"), 1400, 4000);
    try {
      browser.get(jaeger.traceUrl(traceId));
      By rows = By.cssSelector(".endpoint-name");
      new WebDriverWait(browser, Duration.ofSeconds(60))
          .until(b -> b.findElements(rows).size() == spans.size());
      List<String> names = browser.findElements(rows).stream().map(WebElement::getText).toList();
      assertThat(names.get(0)).isEqualTo("POST /circulation/check-out-by-barcode");
      assertThat(names).filteredOn(n -> n.matches("(GET|POST|PUT|DELETE) /.*")).hasSize(CALLS + 1);
      assertThat(names).filteredOn(n -> n.startsWith("handler ")).hasSize(CALLS + 1);
      assertThat(
              browser
                  .findElement(By.xpath("//span[text()='Total Spans']/following-sibling::strong"))
                  .getText())
          .isEqualTo(Integer.toString(spans.size()));
    } finally {
      browser.quit();
    }
  }

  /** The gateway's spans of one check-out: 34 requests served, each one handler call. */
  private static void assertHops(List<TraceSpan> spans) {
    Map<String, TraceSpan> byId =
        spans.stream().collect(Collectors.toMap(TraceSpan::id, Function.identity()));
    List<TraceSpan> servers = servers(spans);
    assertThat(servers).hasSize(CALLS + 1);
    assertThat(calls(spans, "handler")).isEqualTo(CALLS + 1);
    List<TraceSpan> roots = servers.stream().filter(s -> !byId.containsKey(s.parentId())).toList();
    assertThat(roots)
        .as("one request from outside (its parent the desk's span, not in Jaeger)")
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
    Predicate<JsonObject> complete = t -> servers(TraceSpan.of(t)).size() >= CALLS + 1;
    return TraceSpan.of(jaeger.trace(traceId, complete, Duration.ofSeconds(60)));
  }

  private static List<TraceSpan> servers(List<TraceSpan> spans) {
    return spans.stream().filter(TraceSpan::isServer).toList();
  }

  private static long calls(List<TraceSpan> spans, String kind) {
    return spans.stream().filter(s -> kind.equals(s.callKind())).count();
  }
}
