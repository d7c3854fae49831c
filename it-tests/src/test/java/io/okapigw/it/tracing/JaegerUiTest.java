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
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
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
 * A check-out through three gateway nodes exporting to a real Jaeger, read back from its query API
 * and shown in its UI in a browser. Skipped with a notice where the Jaeger binary is not built
 * ({@link JaegerCheck}: `bash .ci/jaeger.sh`); the spans themselves are checked everywhere by
 * {@link TracingClusterTest}.
 */
@ExtendWith(JaegerCheck.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class JaegerUiTest {

  private static final int CALLS = TracingClusterTest.CALLS;

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
  void checkOut_inJaegersQueryApi_34GatewayHops() throws Exception {
    TracedCheckOut desk = TracedCheckOut.login(cluster.url(1), true);
    TracingClusterTest.assertHops(read(desk.checkOutAndIn(library.data(), 0)));
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

  private List<TraceSpan> read(String traceId) throws Exception {
    Predicate<JsonObject> complete =
        t -> TraceSpan.of(t).stream().filter(TraceSpan::isServer).count() >= CALLS + 1;
    return TraceSpan.of(jaeger.trace(traceId, complete, Duration.ofSeconds(60)));
  }
}
