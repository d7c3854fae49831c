package io.okapigw.perf.load;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Load on one gateway, in three steps: {@link #start} (every virtual user logs in once, then the
 * warm-up, discarded), {@link #measure} (once, or several slices that add up, each with the
 * gateway's auth-call counter read just before and after), {@link #finish} (the
 * {@link AuthProbe}, the report). All operations of all steps count against
 * {@link LoadPlan#maxOperations()}. The steps must run one after the other.
 */
final class LoadDriver {

  private static final Logger log = LoggerFactory.getLogger(LoadDriver.class);

  private record Slice(Duration elapsed, double authCalls) {
  }

  private final LoadPlan plan;
  private final String mode;
  private final GatewayClient client;
  private final ErrorLog errors = new ErrorLog();
  private final Workload workload;
  private final OperationBudget budget;
  private final PhaseStats measured = PhaseStats.create();
  private List<VirtualUser> users = List.of();
  private Duration measuredTime = Duration.ZERO;
  private double measuredAuthCalls;

  private LoadDriver(Vertx vertx, LoadPlan plan, String mode) {
    this.plan = plan;
    this.mode = mode;
    this.client = new GatewayClient(vertx, plan.gateway(), plan.tenant(), plan.users());
    this.workload = new Workload(client, errors);
    this.budget = new OperationBudget(plan.maxOperations());
  }

  /**
   * Start, one measured run of {@link LoadPlan#duration()}, finish.
   *
   * @param rows the barcodes, split among the users by {@link BarcodeRows#partition}
   * @param mode a name for the report
   * @return the report; failed if a login failed or the metrics could not be read
   */
  static Future<RunReport> run(Vertx vertx, LoadPlan plan, List<BarcodeRow> rows, String mode) {
    return start(vertx, plan, rows, mode)
        .compose(driver -> driver.measure(plan.duration()).map(driver))
        .compose(LoadDriver::finish);
  }

  /**
   * Splits the rows among the users, logs each in, runs the warm-up.
   *
   * @return the driver, ready to measure; failed (and closed) if a login failed
   */
  static Future<LoadDriver> start(Vertx vertx, LoadPlan plan, List<BarcodeRow> rows,
      String mode) {
    List<List<BarcodeRow>> parts;
    try {
      parts = BarcodeRows.partition(rows, plan.users());
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    LoadDriver driver = new LoadDriver(vertx, plan, mode);
    return driver.loginAll(parts)
        .compose(v -> LoadRun.run(driver.workload, driver.users, plan.warmup(), driver.budget,
            PhaseStats.create()))
        .map(warmedUp -> driver)
        .onFailure(e -> driver.client.close());
  }

  /** Runs the load for {@code length} more and adds it to the measured figures. */
  Future<Void> measure(Duration length) {
    return client.authCalls()
        .compose(before -> LoadRun.run(workload, users, length, budget, measured)
            .compose(elapsed -> client.authCalls().map(after -> new Slice(elapsed,
                after - before))))
        .map(this::add);
  }

  private Void add(Slice slice) {
    measuredTime = measuredTime.plus(slice.elapsed());
    measuredAuthCalls += slice.authCalls();
    return null;
  }

  /** Runs the probe, closes the client. */
  Future<RunReport> finish() {
    return new AuthProbe(workload, client, users, budget, PhaseStats.create())
        .run(plan.probeRounds())
        .map(this::report)
        .eventually(client::close);
  }

  private Future<Void> loginAll(List<List<BarcodeRow>> parts) {
    List<Future<VirtualUser>> logins = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      int id = i;
      logins.add(login().map(token -> new VirtualUser(id, parts.get(id), token)));
    }
    return Future.all(logins).map(all -> {
      users = logins.stream().map(Future::result).toList();
      return null;
    });
  }

  /** @return the token; {@code null} if login answers 404 (the tenant has no auth module) */
  private Future<String> login() {
    JsonObject credentials = new JsonObject().put("username", plan.username())
        .put("password", plan.password());
    return client.post("/authn/login", credentials, null).compose(answer -> {
      if (answer.status() == 404) {
        log.debug("login answered 404: no auth module for {}, running without a token",
            plan.tenant());
        return Future.succeededFuture(null);
      }
      if (answer.status() != 201 || answer.token() == null) {
        return Future.failedFuture("login as " + plan.username() + " to " + plan.gateway()
            + " failed: " + answer.describe());
      }
      return Future.succeededFuture(answer.token());
    });
  }

  private RunReport report(AuthProbe.Result probe) {
    double seconds = measuredTime.toNanos() / 1e9;
    return new RunReport(mode, plan, measuredTime, measured.checkOut().summary(seconds),
        measured.checkIn().summary(seconds), measured.both().summary(seconds),
        measuredAuthCalls, probe, errors.count(), errors.first());
  }
}
