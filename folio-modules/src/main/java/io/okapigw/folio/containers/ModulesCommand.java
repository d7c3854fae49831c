package io.okapigw.folio.containers;

import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.config.StartDeadline;
import io.okapigw.folio.CirculationModules;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code modules}: every simulated circulation module on a fixed port of a reachable address (for
 * containers), plus a {@link ManifestServer} telling the {@code register} job what to register.
 * Runs until stopped.
 */
public final class ModulesCommand {

  private static final Logger log = LoggerFactory.getLogger(ModulesCommand.class);

  /** The settings of {@code modules}. */
  public static final SettingsSpec SPEC = ModulesOptions.SPEC;

  private ModulesCommand() {}

  /**
   * Starts the modules and the manifest; exits with 1 if a port cannot be bound or they do not
   * listen within {@code --start-timeout}.
   */
  public static void run(Settings settings) {
    ModulesOptions options = ModulesOptions.from(settings);
    StartDeadline deadline =
        StartDeadline.arm("modules", settings.get(StartDeadline.START_TIMEOUT), log::error);
    Vertx vertx = Vertx.vertx();
    start(vertx, options)
        .onSuccess(listening -> log.info(listening.message()))
        .onSuccess(listening -> deadline.started())
        .onFailure(e -> deadline.failed(e.getMessage()));
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> vertx.close().toCompletionStage().toCompletableFuture().join()));
  }

  /**
   * @return where everything listens, once it does
   */
  static Future<Listening> start(Vertx vertx, ModulesOptions options) {
    return CirculationModules.start(
            vertx, options.data(), options.callTimeout(), options.host(), options.port() + 1)
        .compose(
            modules -> {
              modules.deployments().forEach(d -> d.faults().slowBy(options.latency()));
              return ManifestServer.start(vertx, options, modules)
                  .map(
                      port ->
                          new Listening(
                              options, modules.deployments().size(), options.port() + 1, port));
            });
  }

  /**
   * Where the modules listen: {@code modules} ports from {@code firstPort} on, and the manifest.
   */
  record Listening(ModulesOptions options, int modules, int firstPort, int manifestPort) {

    /**
     * @return the line logged once everything listens
     */
    String message() {
      return String.format(
          "%d simulated modules on %s:%d-%d, manifest at http://%s:%d/modules",
          modules,
          options.host(),
          firstPort,
          firstPort + modules - 1,
          options.advertiseHost(),
          manifestPort);
    }
  }
}
