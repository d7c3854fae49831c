package io.okapigw.perf.load;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.DemoStack;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code checkout-checkin --compare}: for each user count, starts three demo stacks in this JVM
 * (free ports, each with its own temporary data directory) — auth off, auth with the cache off,
 * auth with the cache on — logs the users in and warms each up in turn, then measures them in
 * interleaved slices (auth off, cache off, cache on, auth off, ...) so that a change in the
 * machine's other load during the run hits every mode alike, then probes each, stops them and
 * prints one table per user count with ratios to "cache off". Before the first user count, a
 * cache-off stack warms the JVM up.
 */
final class Comparison {

  private static final Logger log = LoggerFactory.getLogger(Comparison.class);

  /** auth off, cache off, cache on: the order of the table. */
  private static final List<DemoMode> MODES =
      List.of(new DemoMode(false, false), new DemoMode(true, false), new DemoMode(true, true));

  private record DemoMode(boolean auth, boolean cache) {}

  private record Running(DemoStack stack, String dir) {}

  private Comparison() {}

  /**
   * @return every run's report, by user count, then mode; the tables are printed
   */
  static Future<List<RunReport>> run(Vertx vertx, LoadOptions options) {
    return primeJvm(vertx, options)
        .compose(v -> InTurn.each(options.users(), users -> compareAt(vertx, options, users)))
        .map(perUsers -> perUsers.stream().flatMap(List::stream).toList())
        .onSuccess(reports -> ComparisonReport.print(options, reports));
  }

  private static Future<Void> primeJvm(Vertx vertx, LoadOptions options) {
    if (options.jvmWarmup().isZero()) {
      return Future.succeededFuture();
    }
    int users = options.users().get(0);
    log.info("warming the JVM up for {} s on a cache-off stack", options.jvmWarmup().toSeconds());
    return startStack(vertx, options, MODES.get(1))
        .compose(
            running ->
                LoadDriver.start(
                        vertx,
                        plan(options, running, users).priming(options.jvmWarmup()),
                        rows(running),
                        "JVM warm-up")
                    .compose(LoadDriver::finish)
                    .onSuccess(r -> r.firstErrors().forEach(e -> log.warn("JVM warm-up: {}", e)))
                    .eventually(() -> stopAll(vertx, List.of(running))))
        .mapEmpty();
  }

  private static Future<List<RunReport>> compareAt(Vertx vertx, LoadOptions options, int users) {
    log.info("{} users: starting {} demo stacks", users, MODES.size());
    return InTurn.each(MODES, mode -> startStack(vertx, options, mode))
        .compose(
            running ->
                sideBySide(
                        vertx,
                        running.stream()
                            .map(
                                r ->
                                    new Contender(
                                        plan(options, r, users),
                                        rows(r),
                                        r.stack().options().mode()))
                            .toList(),
                        options.duration(),
                        options.slices())
                    .eventually(() -> stopAll(vertx, running)));
  }

  /** One load to compare: a plan, the rows of its library, a name for the table. */
  record Contender(LoadPlan plan, List<BarcodeRow> rows, String mode) {}

  /**
   * Starts a driver for each contender in turn (login, warm-up), measures them in interleaved
   * slices (first, second, ..., first, ...) so that a change in the machine's other load hits each
   * alike, then finishes each (probe, report). Only one contender runs at a time.
   *
   * @return the reports, in the contenders' order
   */
  static Future<List<RunReport>> sideBySide(
      Vertx vertx, List<Contender> contenders, Duration duration, int slices) {
    return InTurn.each(contenders, c -> LoadDriver.start(vertx, c.plan(), c.rows(), c.mode()))
        .compose(drivers -> interleave(drivers, duration, slices).map(drivers))
        .compose(drivers -> InTurn.each(drivers, LoadDriver::finish));
  }

  private static Future<Void> interleave(List<LoadDriver> drivers, Duration duration, int slices) {
    Duration slice = duration.dividedBy(slices);
    List<LoadDriver> order = new ArrayList<>();
    for (int s = 0; s < slices; s++) {
      order.addAll(drivers);
    }
    log.info(
        "measuring {} modes in {} slices of {} ms each", drivers.size(), slices, slice.toMillis());
    return InTurn.each(order, driver -> driver.measure(slice)).mapEmpty();
  }

  private static Future<Running> startStack(Vertx vertx, LoadOptions options, DemoMode mode) {
    return vertx
        .fileSystem()
        .createTempDirectory("okapigw-compare-")
        .compose(
            dir ->
                DemoStack.start(
                        vertx,
                        new DemoOptions(
                            0,
                            options.patrons(),
                            options.items(),
                            mode.auth(),
                            mode.cache(),
                            Path.of(dir),
                            options.userLookup()))
                    .map(stack -> new Running(stack, dir)));
  }

  private static Future<Void> stopAll(Vertx vertx, List<Running> running) {
    return InTurn.each(
            running,
            r -> r.stack().close().eventually(() -> vertx.fileSystem().deleteRecursive(r.dir())))
        .mapEmpty();
  }

  private static LoadPlan plan(LoadOptions options, Running running, int users) {
    return options.plan(List.of(URI.create(running.stack().gatewayUrl())), users);
  }

  private static List<BarcodeRow> rows(Running running) {
    return BarcodeRows.of(running.stack().data());
  }
}
