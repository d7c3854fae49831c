package io.okapigw.it.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.DemoStack;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Stripes in a real browser: headless Chromium opens a page served from another origin (another
 * port of {@code localhost}, so the gateway's cookies are first-party, as for a Stripes build and a
 * gateway of one site) and makes stripes-core's calls against {@code ./gateway demo}'s stack with
 * {@code credentials: 'include'}: login at {@code /bl-users/login-with-expiry}, discovery ({@code
 * /_/version}, the tenant's modules with {@code full=true}, {@code circulation} among the
 * interfaces), a check-out and check-in of a demo item, a refresh, the logout, and a request after
 * it (refused). Every call crosses origins, so each is a CORS request with credentials, and the
 * JSON ones are preflighted. The page's log and a screenshot are kept in {@code target/browser/}.
 */
@ExtendWith(ChromiumCheck.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class StripesBrowserTest {

  private static final Path OUT = Path.of("target", "browser");

  @TempDir static Path dir;

  private static Vertx vertx;
  private static DemoStack stack;
  private static HttpServer page;
  private static ChromeDriver browser;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    stack =
        DemoStack.start(vertx, new DemoOptions(0, 50, 50, true, true, dir.resolve("demo")))
            .await(2, TimeUnit.MINUTES);
    Buffer html = Buffer.buffer(resource("browser/stripes-page.html"));
    page =
        vertx
            .createHttpServer()
            .requestHandler(
                req -> {
                  if ("/".equals(req.path())) {
                    req.response().putHeader("Content-Type", "text/html").end(html);
                  } else {
                    req.response().setStatusCode(404).end();
                  }
                })
            .listen(0, "127.0.0.1")
            .await(30, TimeUnit.SECONDS);
    browser = Chromium.start(Files.createDirectories(dir.resolve("profile")));
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (stack != null) {
      stack.close().await(1, TimeUnit.MINUTES);
    }
    if (vertx != null) {
      vertx.close().await(1, TimeUnit.MINUTES);
    }
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = StripesBrowserTest.class.getClassLoader().getResourceAsStream(name)) {
      return in.readAllBytes();
    }
  }

  /** The page's URL: another port of {@code localhost} than the gateway's. */
  private static String pageUrl() {
    int gatewayPort = URI.create(stack.gatewayUrl()).getPort();
    Map<String, String> query =
        Map.of(
            "okapi",
            "http://localhost:" + gatewayPort,
            "tenant",
            DemoOptions.TENANT,
            "username",
            DemoOptions.ADMIN,
            "password",
            DemoOptions.ADMIN_PASSWORD,
            "item",
            stack.data().itemBarcodes().get(0),
            "patron",
            stack.data().activePatronBarcodes().get(0));
    StringBuilder url = new StringBuilder("http://localhost:" + page.actualPort() + "/?");
    query.forEach(
        (k, v) ->
            url.append(k)
                .append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8))
                .append('&'));
    return url.toString();
  }

  @Test
  @SuppressWarnings("unchecked")
  void stripesCalls_loginDiscoveryCheckOutAndInRefreshLogout_allAsExpected() throws IOException {
    browser.get(pageUrl());
    Object result =
        new WebDriverWait(browser, Duration.ofSeconds(120))
            .until(d -> ((JavascriptExecutor) d).executeScript("return window.stripesResult;"));

    Map<String, Object> outcome = (Map<String, Object>) result;
    String log = (String) outcome.get("log");
    Files.createDirectories(OUT);
    Files.writeString(OUT.resolve("stripes-page.log"), log);
    Files.write(OUT.resolve("stripes-page.png"), browser.getScreenshotAs(OutputType.BYTES));
    System.out.println(
        "StripesBrowserTest: the page's log ("
            + browser.getCapabilities().getBrowserVersion()
            + "):\n"
            + log);

    List<Map<String, Object>> steps = (List<Map<String, Object>>) outcome.get("steps");
    assertThat(steps)
        .extracting(s -> s.get("name"))
        .contains(
            "login",
            "discovery: modules",
            "circulation among the interfaces",
            "check out",
            "check in",
            "refresh (rotation)",
            "logout",
            "after logout: refused");
    assertThat(steps)
        .allSatisfy(s -> assertThat(s.get("ok")).as(s.toString()).isEqualTo(Boolean.TRUE));
    assertThat(browser.getTitle()).isEqualTo("PASSED");
  }
}
