package io.okapigw.perf.load;

import io.okapigw.perf.demo.DemoOptions;
import io.okapigw.perf.demo.DemoStack;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code checkout-checkin --compare}: for each user count, starts a fresh demo stack in this JVM
 * (free port, its own temporary data directory) for each mode in turn — auth off, auth with the
 * cache off, auth with the cache on — runs the same load on it, stops it, and prints one table
 * per user count with ratios to "cache off".
 */
final class Comparison {

  private static final Logger log = LoggerFactory.getLogger(Comparison.class);
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private record Job(int users, boolean auth, boolean cache, boolean priming) {
  }

  private Comparison() {
  }

  /** @return every run's report, in the order run; the tables are printed */
  static Future<List<RunReport>> run(Vertx vertx, LoadOptions options) {
    List<Job> jobs = new ArrayList<>();
    for (int users : options.users()) {
      jobs.add(new Job(users, false, false, false));
      jobs.add(new Job(users, true, false, false));
      jobs.add(new Job(users, true, true, false));
    }
    Future<RunReport> primed = options.jvmWarmup().isZero() ? Future.succeededFuture()
        : one(vertx, options, new Job(options.users().get(0), true, false, true))
            .onSuccess(r -> r.firstErrors().forEach(e -> log.warn("JVM warm-up: {}", e)));
    return primed.compose(v -> InTurn.each(jobs, job -> one(vertx, options, job)))
        .onSuccess(reports -> print(options, reports));
  }

  private static Future<RunReport> one(Vertx vertx, LoadOptions options, Job job) {
    return vertx.fileSystem().createTempDirectory("okapigw-compare-")
        .compose(dir -> onStack(vertx, options, job, new DemoOptions(0, options.patrons(),
                options.items(), job.auth(), job.cache(), Path.of(dir)))
            .eventually(() -> vertx.fileSystem().deleteRecursive(dir)));
  }

  private static Future<RunReport> onStack(Vertx vertx, LoadOptions options, Job job,
      DemoOptions demo) {
    log.info("{}, {} users: starting a demo stack{}", demo.mode(), job.users(), job.priming()
        ? " to warm the JVM up for " + options.jvmWarmup().toSeconds() + " s" : "");
    return DemoStack.start(vertx, demo)
        .compose(stack -> LoadDriver.run(vertx, plan(options, job, stack),
                BarcodeRows.of(stack.data()), demo.mode())
            .eventually(stack::close))
        .onSuccess(r -> log.info("{}, {} users: {} check-outs, mean {} ms, {} errors",
            r.mode(), job.users(), r.checkOut().count(), Math.round(r.checkOut().mean()),
            r.errors()));
  }

  private static LoadPlan plan(LoadOptions options, Job job, DemoStack stack) {
    LoadPlan plan = options.plan(URI.create(stack.gatewayUrl()), job.users());
    return job.priming() ? plan.priming(options.jvmWarmup()) : plan;
  }

  private static void print(LoadOptions options, List<RunReport> reports) {
    for (int users : options.users()) {
      List<RunReport> same = reports.stream().filter(r -> r.plan().users() == users).toList();
      StringBuilder text = new StringBuilder().append(String.format(
          "%n### %d users%n%n%d s measured after a %d s warm-up on each mode; a fresh demo stack"
              + " per mode (%d patrons, %d items), driver in the same JVM (warmed up first by %d"
              + " s on a cache-off stack)%n%n", users, options.duration().toSeconds(),
          options.warmup().toSeconds(), options.patrons(), options.items(),
          options.jvmWarmup().toSeconds()));
      text.append(ReportTable.compared(same)).append("\n\n");
      same.forEach(r -> text.append("- ").append(r.mode()).append(": ")
          .append(ReportTable.authNote(r)).append("\n"));
      same.forEach(r -> r.firstErrors().forEach(e -> text.append("- error (").append(r.mode())
          .append("): ").append(e).append("\n")));
      out.info(text.toString());
    }
  }
}
