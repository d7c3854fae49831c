package io.okapigw.folio.containers;

import io.okapigw.config.Commands;

/**
 * Command line of the simulated FOLIO modules: {@code java -jar
 * folio-modules/target/folio-modules-fat.jar COMMAND ...} (the modules image's entry point).
 */
public final class Main {

  /** The two jobs of the container cluster. */
  static final Commands COMMANDS =
      Commands.of("java -jar folio-modules/target/folio-modules-fat.jar")
          .add(
              "modules",
              "the simulated modules on fixed ports (port+1, port+2, ...: one per module) for containers; manifest,"
                  + " health and barcodes.csv on port",
              ModulesCommand.SPEC,
              ModulesCommand::run)
          .add(
              "module",
              "one simulated module alone on --port, as a gateway deploying modules starts it"
                  + " (Okapi's launch descriptors)",
              ModuleCommand.SPEC,
              ModuleCommand::run)
          .add(
              "register",
              "one-shot job: waits for them, registers authtoken + modules, enables them for the"
                  + " tenant, checks the bootstrapped user's login, then protects the admin API"
                  + " (authtoken enabled for the supertenant); admin calls refused 401/403 are made"
                  + " again as the super admin (docker/docker-compose.yml runs it); the gateway"
                  + " may be ours or Okapi",
              RegisterCommand.SPEC,
              RegisterCommand::run);

  private Main() {}

  public static void main(String[] args) {
    COMMANDS.main(args);
  }
}
