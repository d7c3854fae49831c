package io.okapigw.folio.containers;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.config.StartDeadline;
import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.data.CirculationData;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code module}: one simulated module alone on one port, as a gateway that deploys modules
 * (Okapi's launch descriptors) starts it: {@code module --name mod-users --port %p}, or in the
 * modules image {@code dockerCMD ["module", "--name", "mod-users", "--port", "9300"]}. Runs until
 * stopped; the same library options give every module the same library.
 */
public final class ModuleCommand {

  private static final Logger log = LoggerFactory.getLogger(ModuleCommand.class);

  static final Setting<String> NAME =
      Setting.text("name", null, "NAME")
          .check(s -> !s.isBlank(), "a module name, e.g. mod-users")
          .about(
              "the module to run, by name without version (`mod-users`, `mod-circulation`, ...)");

  static final Setting<Integer> PORT =
      Setting.integer("port", 9300, 1, 65_000).about("the port the module listens on");

  /** The settings of {@code module}: its name, and where and on which library it runs. */
  static final SettingsSpec SPEC =
      SettingsSpec.of(
          NAME,
          ModulesOptions.HOST,
          PORT,
          ModulesOptions.PATRONS,
          ModulesOptions.ITEMS,
          ModulesOptions.SEED,
          ModulesOptions.CALL_TIMEOUT,
          StartDeadline.START_TIMEOUT);

  private ModuleCommand() {}

  /** Starts the module on {@code --port}; exits with 1 if it cannot, or not in time. */
  public static void run(Settings settings) {
    String name = settings.get(NAME);
    if (name == null) {
      throw new IllegalArgumentException("name: which module to run (--name mod-users)");
    }
    String host = settings.get(ModulesOptions.HOST);
    int port = settings.get(PORT);
    CirculationData.Options data =
        new CirculationData.Options(
            settings.get(ModulesOptions.SEED),
            settings.get(ModulesOptions.PATRONS),
            settings.get(ModulesOptions.ITEMS));
    StartDeadline deadline =
        StartDeadline.arm(name, settings.get(StartDeadline.START_TIMEOUT), log::error);
    Vertx vertx = Vertx.vertx();
    CirculationModules.startOne(
            vertx, data, settings.get(ModulesOptions.CALL_TIMEOUT), host, port, name)
        .onSuccess(m -> log.info("{} on {}:{}", m.id(), host, port))
        .onSuccess(m -> deadline.started())
        .onFailure(e -> deadline.failed(e.getMessage()));
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> vertx.close().toCompletionStage().toCompletableFuture().join()));
  }
}
