package io.okapigw.perf.profile;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code profile-summary}: reads async-profiler's collapsed stacks ({@code frame;frame;... count},
 * outermost frame first) and prints, as markdown, the share of samples by {@link CostCategory}
 * (each sample counted once) and the share under the gateway's main steps (a sample counts in every
 * step its stack passes through).
 */
public final class ProfileSummary {

  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  static final Setting<String> FILE =
      Setting.text("file", null, "FILE").about("collapsed stacks written by async-profiler");

  static final Setting<Boolean> EVENT_LOOPS =
      Setting.bool("event-loops-only", false)
          .about("count only samples of the event-loop threads (stacks through Netty's loop)");

  /** The settings of {@code profile-summary}. */
  public static final SettingsSpec SPEC = SettingsSpec.of(FILE, EVENT_LOOPS);

  /** What {@code profile-summary} is, for the usage text. */
  public static final String ABOUT =
      "where a profile's samples go: async-profiler's collapsed stacks by cost category and by the"
          + " gateway's steps, as markdown tables";

  /** The steps of the gateway's request path whose inclusive share is printed. */
  static final Map<String, String> STEPS = steps();

  private ProfileSummary() {}

  /**
   * {@code profile-summary --file FILE}.
   *
   * @param settings read by {@link #SPEC}
   */
  public static void run(Settings settings) {
    if (!settings.has(FILE)) {
      throw new IllegalArgumentException("--file is required: async-profiler's collapsed stacks");
    }
    Path file = Path.of(settings.get(FILE));
    try (Stream<String> lines = Files.lines(file)) {
      out.info(text(lines.toList(), settings.get(EVENT_LOOPS)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /**
   * @param lines collapsed stacks
   * @param eventLoopsOnly count only stacks that pass through Netty's event loop
   * @return the two markdown tables
   */
  static String text(List<String> lines, boolean eventLoopsOnly) {
    Map<String, Long> byCategory = new LinkedHashMap<>();
    CostCategory.ALL.forEach(c -> byCategory.put(c.name(), 0L));
    byCategory.put(CostCategory.OTHER, 0L);
    Map<String, Long> bySteps = new LinkedHashMap<>();
    STEPS.keySet().forEach(s -> bySteps.put(s, 0L));
    List<Map.Entry<String, Pattern>> steps =
        STEPS.entrySet().stream()
            .map(e -> Map.entry(e.getKey(), Pattern.compile(e.getValue())))
            .toList();
    Predicate<List<String>> counted =
        eventLoopsOnly
            ? f ->
                f.stream()
                    .anyMatch(
                        x ->
                            x.startsWith("io.netty.channel.SingleThreadIoEventLoop.run")
                                || x.startsWith("io.netty.channel.nio.NioEventLoop.run"))
            : f -> true;
    long total = 0;
    long kernel = 0;
    for (String line : lines) {
      int space = line.lastIndexOf(' ');
      if (space < 0) {
        continue;
      }
      long count = Long.parseLong(line.substring(space + 1).trim());
      List<String> frames =
          Arrays.stream(line.substring(0, space).split(";")).map(ProfileSummary::javaName).toList();
      if (!counted.test(frames)) {
        continue;
      }
      total += count;
      if (line.contains("_[k];") || line.contains("_[k] ")) {
        kernel += count;
      }
      byCategory.merge(CostCategory.of(frames), count, Long::sum);
      for (Map.Entry<String, Pattern> step : steps) {
        if (frames.stream().anyMatch(f -> step.getValue().matcher(f).find())) {
          bySteps.merge(step.getKey(), count, Long::sum);
        }
      }
    }
    String kernelShare =
        String.format(
            Locale.ROOT,
            "Samples with kernel frames (system calls, network stack, page faults): %.1f %%%n%n",
            total == 0 ? 0.0 : 100.0 * kernel / total);
    return kernelShare
        + table("cost category (each sample once)", byCategory, total)
        + "\n"
        + table(
            "step of the gateway (inclusive: a sample counts in each step on its stack)",
            bySteps,
            total);
  }

  private static String table(String title, Map<String, Long> counts, long total) {
    StringBuilder text =
        new StringBuilder(
            String.format(Locale.ROOT, "| %s | samples | share |%n| --- | ---: | ---: |%n", title));
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(
            e ->
                text.append(
                    String.format(
                        Locale.ROOT,
                        "| %s | %d | %.1f %% |%n",
                        e.getKey(),
                        e.getValue(),
                        total == 0 ? 0.0 : 100.0 * e.getValue() / total)));
    return text.append(String.format(Locale.ROOT, "| all | %d | 100 %% |%n", total)).toString();
  }

  /**
   * async-profiler writes {@code io/netty/Foo.bar} and may append {@code _[j]}: {@code
   * io.netty.Foo.bar}.
   */
  static String javaName(String frame) {
    String name = frame.replaceFirst("_\\[[a-z0-9]+\\]$", "");
    return name.contains("::") ? name : name.replace('/', '.');
  }

  private static Map<String, String> steps() {
    Map<String, String> steps = new LinkedHashMap<>();
    steps.put("all a socket read sets off (NioByteUnsafe.read)", "NioByteUnsafe\\.read");
    steps.put("  socket read system calls", "SocketChannelImpl\\.read|SocketDispatcher\\.read");
    steps.put(
        "  HTTP decoding (Netty's decoder, our strict decoder)",
        "HttpObjectDecoder\\.decode|StrictRequestDecoder");
    steps.put(
        "  client requests handled (Vert.x server connection, our handler)",
        "Http1xServerConnection\\.handleMessage");
    steps.put(
        "  module responses handled (Vert.x client connection, relay)",
        "Http1xClientConnection\\.handleMessage");
    steps.put(
        "our ProxyHandler.handle (route, auth, filters, module call set-up)",
        "^io\\.okapigw\\.core\\.proxy\\.ProxyHandler\\.handle");
    steps.put("  routing: ProxyHandler.route", "ProxyHandler\\.route");
    steps.put("  credentials: ClientIdentity", "^io\\.okapigw\\.core\\.proxy\\.ClientIdentity\\.");
    steps.put(
        "  auth stage (cache key, lookup)", "^io\\.okapigw\\.core\\.auth\\.CachingAuthStage\\.");
    steps.put(
        "  module call opened (ModuleClient.open: instance, pool, request)",
        "^io\\.okapigw\\.core\\.upstream\\.ModuleClient\\.open");
    steps.put(
        "  headers to the module (ProxyRequest.writeModuleHeaders)",
        "ProxyRequest\\.writeModuleHeaders");
    steps.put("  request sent (Exchange.send)", "^io\\.okapigw\\.core\\.proxy\\.Exchange\\.send");
    steps.put(
        "module response head (Forwarder.relay: headers to the client)",
        "^io\\.okapigw\\.core\\.proxy\\.Forwarder\\.relay");
    steps.put(
        "response headers copied (OkapiHeaders.copyForwardable)", "OkapiHeaders\\.copyForwardable");
    steps.put(
        "response body relayed (pipes, writes)", "^io\\.vertx\\.core\\.streams\\.impl\\.PipeImpl");
    steps.put("request metrics (RequestMetrics.record)", "RequestMetrics\\.record");
    steps.put("module call metrics (CallMetrics)", "^io\\.okapigw\\.core\\.upstream\\.CallMetrics");
    steps.put("Micrometer (any)", "^io\\.micrometer\\.");
    steps.put("logging (any)", "^org\\.apache\\.logging\\.|^org\\.slf4j\\.");
    steps.put(
        "timers (Vert.x setTimer/cancelTimer, Netty schedule)",
        "VertxImpl\\.(setTimer|cancelTimer)|AbstractScheduledEventExecutor\\.schedule|ScheduledFutureTask\\.cancel");
    steps.put(
        "flushes (Netty flush, socket writes)",
        "AbstractChannelHandlerContext\\.(invokeFlush|flush)|NioSocketChannel\\.doWrite");
    steps.put(
        "epoll/select", "SelectorImpl\\.(select|selectNow)|EPoll\\.wait|NioEventLoop\\.select");
    steps.put(
        "Netty buffer allocation",
        "^io\\.netty\\.buffer\\.(PooledByteBufAllocator|PoolArena|PoolThreadCache|AbstractByteBufAllocator)");
    steps.put("client pool acquire", "^io\\.vertx\\.core\\.net\\.impl\\.pool\\.");
    steps.put("garbage collector threads", "^G1|^GC|^ConcurrentGCThread|^WorkerThread::");
    steps.put("JIT compiler threads", "^CompileBroker|^C2Compiler|^Compile::");
    return steps;
  }
}
