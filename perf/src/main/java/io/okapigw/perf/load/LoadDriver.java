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
 * One load run: every virtual user logs in once, then the same check-out + check-in loop runs
 * for the warm-up (discarded) and the measured run, with the gateway's auth-call counter read
 * just before and after the measured run; then the {@link AuthProbe}. All operations of all
 * phases count against {@link LoadPlan#maxOperations()}.
 */
final class LoadDriver {

  private static final Logger log = LoggerFactory.getLogger(LoadDriver.class);

  private record Window(Duration elapsed, double authCalls) {
  }

  private final LoadPlan plan;
  private final String mode;
  private final GatewayClient client;
  private final ErrorLog errors = new ErrorLog();
  private final Workload workload;
  private final OperationBudget budget;
  private final PhaseStats measured = PhaseStats.create();

  private LoadDriver(Vertx vertx, LoadPlan plan, String mode) {
    this.plan = plan;
    this.mode = mode;
    this.client = new GatewayClient(vertx, plan.gateway(), plan.tenant(), plan.users());
    this.workload = new Workload(client, errors);
    this.budget = new OperationBudget(plan.maxOperations());
  }

  /**
   * @param rows the barcodes, split among the users by {@link BarcodeRows#partition}
   * @param mode a name for the report
   * @return the report; failed if a login failed or the metrics could not be read
   */
  static Future<RunReport> run(Vertx vertx, LoadPlan plan, List<BarcodeRow> rows, String mode) {
    List<List<BarcodeRow>> parts;
    try {
      parts = BarcodeRows.partition(rows, plan.users());
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    LoadDriver driver = new LoadDriver(vertx, plan, mode);
    return driver.run(parts).eventually(driver.client::close);
  }

  private Future<RunReport> run(List<List<BarcodeRow>> parts) {
    return loginAll(parts).compose(this::load);
  }

  private Future<RunReport> load(List<VirtualUser> users) {
    AuthProbe probe = new AuthProbe(workload, client, users, budget, PhaseStats.create());
    return LoadRun.run(workload, users, plan.warmup(), budget, PhaseStats.create())
        .compose(warmedUp -> measuredRun(users))
        .compose(window -> probe.run(plan.probeRounds()).map(result -> report(window, result)));
  }

  private Future<Window> measuredRun(List<VirtualUser> users) {
    return client.authCalls()
        .compose(before -> LoadRun.run(workload, users, plan.duration(), budget, measured)
            .compose(elapsed -> client.authCalls()
                .map(after -> new Window(elapsed, after - before))));
  }

  private Future<List<VirtualUser>> loginAll(List<List<BarcodeRow>> parts) {
    List<Future<VirtualUser>> logins = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      int id = i;
      logins.add(login().map(token -> new VirtualUser(id, parts.get(id), token)));
    }
    return Future.all(logins).map(all -> logins.stream().map(Future::result).toList());
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

  private RunReport report(Window window, AuthProbe.Result probe) {
    double seconds = window.elapsed().toNanos() / 1e9;
    return new RunReport(mode, plan, window.elapsed(), measured.checkOut().summary(seconds),
        measured.checkIn().summary(seconds), measured.both().summary(seconds),
        window.authCalls(), probe, errors.count(), errors.first());
  }
}
