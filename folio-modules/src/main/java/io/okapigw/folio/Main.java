package io.okapigw.folio;

import io.okapigw.folio.containers.ModulesCommand;
import io.okapigw.folio.containers.RegisterCommand;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command line of the simulated FOLIO modules: {@code java -jar
 * folio-modules/target/folio-modules-fat.jar COMMAND ...} (the modules image's entry point).
 */
public final class Main {

  private static final Logger log = LoggerFactory.getLogger(Main.class);

  /** Plain-text output for the user (usage). */
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private static final String USAGE =
      """
      usage: java -jar folio-modules/target/folio-modules-fat.jar COMMAND [--key value ...]
      commands:
        modules [--host 0.0.0.0] [--port 9300] [--advertise-host localhost] [--patrons 1000]
             [--items 1000] [--seed 42]
            the simulated modules on fixed ports (port+1 ... port+9) for containers; manifest,
            health and barcodes.csv on port
        register [--gateway http://localhost:9130] [--modules-url http://localhost:9300]
             [--authtoken-url http://localhost:8081] [--tenant diku] [--members 1]
             [--username diku_admin] [--password admin | --password-env VARIABLE]
             [--admin-username super_admin] [--admin-password-env VARIABLE | --admin-password P]
             [--protect-admin true|false (default: true when an admin password is given)]
            one-shot job: waits for them, registers authtoken + modules, enables them for the
            tenant, checks the bootstrapped user's login, then protects the admin API (authtoken
            enabled for the supertenant); admin calls refused 401/403 are made again as the
            super admin (docker/docker-compose.yml runs it); the gateway may be ours or Okapi
      """;

  private Main() {}

  public static void main(String[] args) {
    String command = args.length == 0 ? "help" : args[0];
    List<String> rest = Arrays.asList(args).subList(Math.min(1, args.length), args.length);
    try {
      switch (command) {
        case "modules" -> ModulesCommand.run(rest);
        case "register" -> RegisterCommand.run(rest);
        default -> {
          out.info(USAGE);
          System.exit("help".equals(command) ? 0 : 2);
        }
      }
    } catch (IllegalArgumentException e) {
      log.error("bad setting: {}", e.getMessage());
      System.exit(2);
    }
  }
}
