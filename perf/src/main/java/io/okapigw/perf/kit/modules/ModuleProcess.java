package io.okapigw.perf.kit.modules;

import io.okapigw.config.Commands;
import io.okapigw.config.SettingsSpec;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A benchmark module as a process of its own: {@code fixed-module}, {@code fake-module}. */
public final class ModuleProcess {

  private static final Logger log = LoggerFactory.getLogger(ModuleProcess.class);

  private ModuleProcess() {}

  /**
   * The {@code main} of a module started on its own ({@code java -cp perf-fat.jar CLASS --port P
   * ...}, as the launchers start them): reads {@code args} as {@code java -jar perf-fat.jar
   * command} reads them (a bad one exits with status 2, naming it; the usage shows that command)
   * and runs {@code serve}.
   *
   * @param about what the module does
   */
  public static void main(
      String command, String about, SettingsSpec spec, Commands.Runner serve, String[] args) {
    List<String> all = new ArrayList<>(List.of(command));
    all.addAll(List.of(args));
    Commands.of("java -jar perf/target/perf-fat.jar")
        .add(command, about, spec, serve)
        .main(all.toArray(String[]::new));
  }

  /**
   * Starts {@code instances} verticles, each starting a server with {@code start}, which serve
   * until the process is stopped; exits the process with 1 if they cannot start.
   *
   * @param module what serves where, for the log: {@code fixed module on 127.0.0.1:9200}
   */
  public static void serve(String module, int instances, Function<Vertx, Future<?>> start) {
    Vertx vertx = Vertx.vertx();
    vertx
        .deployVerticle(
            () ->
                new VerticleBase() {
                  @Override
                  public Future<?> start() {
                    return start.apply(vertx);
                  }
                },
            new DeploymentOptions().setInstances(instances))
        .onSuccess(id -> log.info("{}: ready", module))
        .onFailure(
            e -> {
              log.error("{} failed: {}", module, e.getMessage());
              System.exit(1);
            });
  }
}
