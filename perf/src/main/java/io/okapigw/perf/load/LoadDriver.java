package io.okapigw.perf.load;

import io.okapigw.perf.kit.process.ListeningPid;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Load on one gateway or several (see {@link Gateways}), in three steps: {@link #start} (asks each
 * gateway whether it has {@code /_/metrics}, every virtual user logs in once, then the warm-up,
 * discarded), {@link #measure} (once, or several slices that add up, each with the gateways'
 * counters read just before and after), {@link #finish} (the {@link AuthProbe}, the report). All
 * operations of all steps count against {@link LoadPlan#maxOperations()}. The steps must run one
 * after the other. A gateway without {@code /_/metrics} (Okapi) is loaded the same; its auth calls
 * are then unknown (NaN) and the probe is skipped. Each gateway's CPU time is read from {@code
 * /proc} where its process is found on this machine (see {@link Gateways}).
 */
public final class LoadDriver {

  private static final Logger log = LoggerFactory.getLogger(LoadDriver.class);

  private record Slice(Duration elapsed, double authCalls, double cpuNanos) {}

  private final LoadPlan plan;
  private final String mode;
  private final Gateways gateways;
  private final ErrorLog errors = new ErrorLog();
  private final Workload workload;
  private final OperationBudget budget;
  private final PhaseStats measured = PhaseStats.create();
  private List<VirtualUser> users = List.of();
  private Duration measuredTime = Duration.ZERO;
  private double measuredAuthCalls;
  private double measuredCpuNanos;

  private LoadDriver(Vertx vertx, LoadPlan plan, String mode) {
    this.plan = plan;
    this.mode = mode;
    this.gateways =
        new Gateways(vertx, plan.gateways(), plan.tenant(), plan.users(), ListeningPid::ofJvm);
    this.workload = new Workload(gateways, errors, this::login);
    this.budget = new OperationBudget(plan.maxOperations());
  }

  /**
   * Start, one measured run of {@link LoadPlan#duration()}, finish.
   *
   * @param rows the barcodes, split among the users by {@link BarcodeRows#partition}
   * @param mode a name for the report
   * @return the report; failed if a login failed, or if a gateway with {@code /_/metrics} could not
   *     be read
   */
  public static Future<RunReport> run(
      Vertx vertx, LoadPlan plan, List<BarcodeRow> rows, String mode) {
    return start(vertx, plan, rows, mode)
        .compose(driver -> driver.measure(plan.duration()).map(driver))
        .compose(LoadDriver::finish);
  }

  /**
   * Splits the rows among the users, logs each in, runs the warm-up.
   *
   * @return the driver, ready to measure; failed (and closed) if a login failed
   */
  public static Future<LoadDriver> start(
      Vertx vertx, LoadPlan plan, List<BarcodeRow> rows, String mode) {
    List<List<BarcodeRow>> parts;
    try {
      parts = BarcodeRows.partition(rows, plan.users());
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    LoadDriver driver = new LoadDriver(vertx, plan, mode);
    Promise<LoadDriver> started = Promise.promise();
    // Build the chain on a Vert.x context: from a plain thread (a test), a response can complete
    // before body() is attached, and its body is then lost (the call never completes).
    vertx
        .getOrCreateContext()
        .runOnContext(
            v ->
                driver
                    .gateways
                    .detectMetrics()
                    .compose(x -> driver.gateways.findProcesses())
                    .compose(x -> driver.loginAll(parts))
                    .compose(
                        x ->
                            PhaseRun.run(
                                driver.workload,
                                driver.users,
                                plan.warmup(),
                                driver.budget,
                                PhaseStats.create()))
                    .map(warmedUp -> driver)
                    .onFailure(e -> driver.gateways.close())
                    .onComplete(started));
    return started.future();
  }

  /** Runs the load for {@code length} more and adds it to the measured figures. */
  public Future<Void> measure(Duration length) {
    return gateways
        .read()
        .compose(
            before ->
                PhaseRun.run(workload, users, length, budget, measured)
                    .compose(
                        elapsed ->
                            gateways
                                .read()
                                .map(
                                    after ->
                                        new Slice(
                                            elapsed,
                                            after.authCallsSince(before),
                                            after.cpuNanosSince(before)))))
        .map(this::add);
  }

  /**
   * Runs the load for {@code length} more into figures of its own, not added to the measured run:
   * one phase of a fault scenario (before, during, after).
   */
  public Future<PhaseFigures> phase(Duration length) {
    return phase(length, Future.future(p -> {}));
  }

  /**
   * As {@link #phase(Duration)}, ending early once {@code until} is complete (the fault's steps are
   * done: a rolling restart, say), at the latest after {@code length}.
   */
  public Future<PhaseFigures> phase(Duration length, Future<?> until) {
    PhaseStats stats = PhaseStats.create();
    return PhaseRun.run(workload, users, length, budget, stats, until::isComplete)
        .map(elapsed -> PhaseFigures.of(elapsed, stats));
  }

  /**
   * As {@link #phase(Duration)}, one run whose pairs are counted apart by when they started: those
   * started in its first {@code first}, and those started after (a fault's first seconds, when what
   * was in flight fails, apart from the rest).
   *
   * @return the two figures, the first's elapsed time {@code first}, the second's the rest
   */
  public Future<List<PhaseFigures>> phase(Duration length, Duration first) {
    PhaseStats early = PhaseStats.create();
    PhaseStats late = PhaseStats.create();
    long split = first.toNanos();
    return PhaseRun.run(
            workload, users, length, budget, started -> started < split ? early : late, () -> false)
        .map(
            elapsed ->
                List.of(
                    PhaseFigures.of(first, early), PhaseFigures.of(elapsed.minus(first), late)));
  }

  /**
   * As {@link #phase(Duration, Future)}, one run whose pairs are counted apart by the stage of the
   * fault they started in: {@code stage} read as each pair starts, {@code 0..count-1} (a node
   * stopped, let go on, ready again).
   *
   * @param elapsed the length of each stage, read when the run has ended
   * @return the figures of each stage, in order
   */
  public Future<List<PhaseFigures>> phase(
      Duration length,
      Future<?> until,
      IntSupplier stage,
      int count,
      IntFunction<Duration> elapsed) {
    List<PhaseStats> stats = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      stats.add(PhaseStats.create());
    }
    return PhaseRun.run(
            workload,
            users,
            length,
            budget,
            started -> stats.get(Math.max(0, Math.min(count - 1, stage.getAsInt()))),
            until::isComplete)
        .map(
            ended -> {
              List<PhaseFigures> figures = new ArrayList<>();
              for (int i = 0; i < count; i++) {
                figures.add(PhaseFigures.of(elapsed.apply(i), stats.get(i)));
              }
              return figures;
            });
  }

  private Void add(Slice slice) {
    measuredTime = measuredTime.plus(slice.elapsed());
    measuredAuthCalls += slice.authCalls();
    measuredCpuNanos += slice.cpuNanos();
    return null;
  }

  /** Runs the probe (unless a gateway has no metrics to attribute calls by), closes the client. */
  public Future<RunReport> finish() {
    return new AuthProbe(workload, gateways, users, budget, PhaseStats.create())
        .run(gateways.metricsKnown() ? plan.probeRounds() : 0)
        .map(this::report)
        .eventually(gateways::close);
  }

  /**
   * Each user logs in at its own gateway, one after the other: a login is a password hash (PBKDF2,
   * 600,000 iterations by default), and 8 at once on a busy 2-core machine waited past the
   * gateway's {@code auth.handler-timeout} (10 s) for the auth module's 2 hashing threads: 504, and
   * the README's load command failed on a fresh clone at load 30.
   */
  private Future<Void> loginAll(List<List<BarcodeRow>> parts) {
    List<VirtualUser> all = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      all.add(new VirtualUser(i, parts.get(i), gateways.size()));
    }
    Future<Void> logins = Future.succeededFuture();
    for (VirtualUser user : all) {
      logins = logins.compose(v -> login(user));
    }
    return logins.map(
        v -> {
          users = List.copyOf(all);
          return null;
        });
  }

  /**
   * Logs in at the user's gateway and keeps the token; none if login answers 404 (the tenant has no
   * auth module).
   */
  private Future<Void> login(VirtualUser user) {
    JsonObject credentials =
        new JsonObject().put("username", plan.username()).put("password", plan.password());
    return gateways
        .post(user, "/authn/login", credentials)
        .compose(
            answer -> {
              if (answer.status() == 404) {
                log.debug(
                    "login answered 404: no auth module for {}, running without a token",
                    plan.tenant());
                return Future.succeededFuture();
              }
              if (answer.status() != 201 || answer.token() == null) {
                return Future.failedFuture(
                    "login as "
                        + plan.username()
                        + " to "
                        + gateways.url(user.gateway())
                        + " failed: "
                        + answer.describe());
              }
              user.loggedIn(answer.token());
              return Future.succeededFuture();
            });
  }

  private RunReport report(AuthProbe.Result probe) {
    double seconds = measuredTime.toNanos() / 1e9;
    Set<Integer> down = gateways.down();
    return new RunReport(
        mode,
        plan,
        measuredTime,
        measured.checkOut().summary(seconds),
        measured.checkIn().summary(seconds),
        measured.both().summary(seconds),
        measuredAuthCalls,
        probe,
        errors.count(down),
        errors.first(down),
        gateways.urls(down),
        errors.lostAt(down),
        measuredCpuNanos,
        gateways.cpuSource(),
        gateways.withoutMetrics());
  }
}
