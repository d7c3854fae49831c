package io.okapigw.perf.load;

import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.folio.data.CirculationData;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.URI;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code checkout-checkin}: the check-out/check-in load driver. Against a running gateway (loopback
 * only), against it and another one in interleaved slices with {@code --vs} ({@link Versus}), or
 * with {@code --compare} against demo stacks it starts itself. Exit code 0 when every operation
 * succeeded, 1 if any failed or the run could not be made, 2 for a bad flag or a gateway that is
 * not a loopback address.
 */
public final class LoadCommand {

  private static final Logger log = LoggerFactory.getLogger(LoadCommand.class);
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private LoadCommand() {}

  /** The settings of {@code checkout-checkin}. */
  public static final SettingsSpec SPEC = LoadOptions.SPEC;

  /**
   * Runs and exits the process with the exit code.
   *
   * @param settings read by {@link #SPEC}
   * @throws IllegalArgumentException naming a bad setting, before anything starts
   */
  public static void run(Settings settings) {
    LoadOptions options = LoadOptions.from(settings);
    System.exit(execute(options));
  }

  /**
   * Runs to the end on the calling thread (which must not be an event loop).
   *
   * @return the exit code: 0 no errors, 1 errors, 2 a bad setting found while running
   */
  public static int execute(LoadOptions options) {
    Vertx vertx = Vertx.vertx();
    try {
      Future<List<RunReport>> reports =
          options.compare() ? Comparison.run(vertx, options) : against(vertx, options);
      return reports
          .map(LoadCommand::exitCode)
          .recover(LoadCommand::failed)
          .toCompletionStage()
          .toCompletableFuture()
          .join();
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().join();
    }
  }

  private static Future<List<RunReport>> against(Vertx vertx, LoadOptions options) {
    Future<List<BarcodeRow>> rows = rows(vertx, options);
    if (!options.vs().isEmpty()) {
      return rows.compose(r -> Versus.run(vertx, options, r));
    }
    String mode = options.gateways().stream().map(URI::toString).collect(Collectors.joining(", "));
    return rows.compose(
        r ->
            InTurn.each(
                options.users(),
                users ->
                    LoadDriver.run(vertx, options.plan(options.gateways(), users), r, mode)
                        .onSuccess(LoadCommand::print)));
  }

  private static Future<List<BarcodeRow>> rows(Vertx vertx, LoadOptions options) {
    return options.barcodes() != null
        ? BarcodeRows.read(vertx, options.barcodes())
        : vertx.executeBlocking(
            () ->
                BarcodeRows.of(
                    CirculationData.generate(
                        new CirculationData.Options(
                            CirculationData.Options.DEFAULT_SEED,
                            options.patrons(),
                            options.items()))));
  }

  private static void print(RunReport r) {
    StringBuilder text =
        new StringBuilder()
            .append(
                String.format(
                    "%ncheck-out + check-in through %s (tenant %s): %d users, %.1f s measured after a %d s"
                        + " warm-up%n%n",
                    r.mode(),
                    r.plan().tenant(),
                    r.plan().users(),
                    r.elapsed().toMillis() / 1000.0,
                    r.plan().warmup().toSeconds()));
    text.append(ReportTable.single(r))
        .append("\n\n")
        .append(ReportTable.authNote(r))
        .append("\n")
        .append(ReportTable.cpuNote(r))
        .append("\nerrors (warm-up, run and probe): ")
        .append(r.errors());
    if (!r.downGateways().isEmpty()) {
      text.append(
          String.format(
              "%ngateways that went down (refused connections; their users"
                  + " moved on): %s; operations lost in flight at them: %d (not errors: their items"
                  + " were checked in again and left out of the rest of the run)",
              String.join(", ", r.downGateways()), r.lostInFlight()));
    }
    r.firstErrors().forEach(e -> text.append("\n  ").append(e));
    out.info(text.toString());
  }

  private static int exitCode(List<RunReport> reports) {
    return reports.stream().anyMatch(r -> r.errors() > 0) ? 1 : 0;
  }

  private static Future<Integer> failed(Throwable e) {
    if (e instanceof IllegalArgumentException) {
      log.error("bad setting: {}", e.getMessage());
      return Future.succeededFuture(2);
    }
    log.error("load run failed: {}", e.getMessage());
    return Future.succeededFuture(1);
  }
}
