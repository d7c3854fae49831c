package io.okapigw.perf.waterfall;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.DemoStack;
import io.okapigw.demo.Jaeger;
import io.okapigw.demo.TraceSpan;
import io.okapigw.demo.TracedCheckOut;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code waterfall}: the demo library with tracing to a Jaeger of its own, cache off and cache on;
 * in each, five check-outs to warm up and one traced, read back from Jaeger's query API and drawn
 * ({@link WaterfallSvg}) to {@code waterfall-cache-off.svg} and {@code waterfall-cache-on.svg};
 * prints the table of both.
 */
public final class WaterfallCommand {

  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  /** Check-outs before the traced one (JIT, connection pools, and with cache on, the cache). */
  private static final int WARMUP = 5;

  /** The check-out's hops: the desk's request and its 33 module-to-module calls. */
  private static final int HOPS = 34;

  public static final Setting<String> OUT =
      Setting.text("out", "docs", "DIR").about("where the two SVG files are written");

  /** The settings of {@code waterfall}. */
  public static final SettingsSpec SPEC = SettingsSpec.of(OUT);

  private WaterfallCommand() {}

  /**
   * @param settings read by {@link #SPEC}
   */
  public static void run(Settings settings) {
    Path outDir = Path.of(settings.get(OUT));
    Path binary = Jaeger.binary().orElseThrow(() -> new IllegalStateException(Jaeger.missing()));
    Vertx vertx = Vertx.vertx();
    try (Jaeger jaeger =
        Jaeger.start(
            binary,
            FreePorts.belowEphemeralRange(),
            FreePorts.belowEphemeralRange(),
            FreePorts.belowEphemeralRange(),
            Files.createTempDirectory("okapigw-waterfall-jaeger"))) {
      StringBuilder table =
          new StringBuilder(
              "| auth cache | gateway hops | check-out ms | auth calls | auth ms summed | share |"
                  + " hits | misses |\n|---|---|---|---|---|---|---|---|\n");
      for (boolean cache : List.of(false, true)) {
        List<TraceSpan> spans = traced(vertx, jaeger, cache);
        String name = cache ? "cache on" : "cache off";
        WaterfallSvg.Summary s = WaterfallSvg.summary(spans);
        Path file = outDir.resolve("waterfall-" + name.replace(' ', '-') + ".svg");
        Files.createDirectories(outDir);
        Files.writeString(file, WaterfallSvg.render("One check-out, auth " + name, spans));
        table.append(
            String.format(
                Locale.ROOT,
                "| %s | %d | %.1f | %d | %.1f | %.0f%% | %d | %d |%n",
                name,
                s.hops(),
                s.totalMs(),
                s.authCalls(),
                s.authMs(),
                100 * s.authShare(),
                s.hits(),
                s.misses()));
        out.info("wrote {}", file);
      }
      out.info("\n{}", table);
    } catch (IOException | TimeoutException e) {
      throw new IllegalStateException("waterfall failed: " + e.getMessage(), e);
    } finally {
      vertx.close().await();
    }
  }

  /** The check-out after {@link #WARMUP} others on a fresh demo stack, as Jaeger has it. */
  private static List<TraceSpan> traced(Vertx vertx, Jaeger jaeger, boolean cache)
      throws IOException, TimeoutException {
    Path data = Files.createTempDirectory("okapigw-waterfall-demo");
    DemoOptions options = new DemoOptions(0, 20, 20, true, cache, data, false, true);
    DemoStack stack =
        DemoStack.start(vertx, options, jaeger.otlpEndpoint()).await(2, TimeUnit.MINUTES);
    try {
      TracedCheckOut desk = TracedCheckOut.login(stack.gatewayUrl(), true);
      for (int i = 0; i < WARMUP; i++) {
        desk.checkOutAndIn(stack.data(), i);
      }
      String traceId = desk.checkOutAndIn(stack.data(), WARMUP);
      out.info("{}: {}", options.mode(), jaeger.traceUrl(traceId));
      return TraceSpan.of(
          jaeger.trace(
              traceId,
              t -> TraceSpan.of(t).stream().filter(TraceSpan::isServer).count() >= HOPS,
              Duration.ofSeconds(60)));
    } finally {
      stack.close().await(1, TimeUnit.MINUTES);
    }
  }
}
