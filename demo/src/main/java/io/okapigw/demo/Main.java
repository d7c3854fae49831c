package io.okapigw.demo;

import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command line of the demo: {@code java -jar demo/target/demo-fat.jar demo ...} ({@code ./gateway
 * demo}).
 */
public final class Main {

  private static final Logger log = LoggerFactory.getLogger(Main.class);

  /** Plain-text output for the user (usage). */
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private static final String USAGE =
      """
      usage: java -jar demo/target/demo-fat.jar demo [--key value ...]   (or ./gateway demo ...)
      commands:
        demo [--port 9130] [--patrons 1000] [--items 1000] [--auth on|off] [--cache on|off]
             [--data-dir data/demo] [--user-lookup local|gateway]
            gateway + authtoken module + simulated circulation modules, tenant diku,
            user diku_admin / admin; admin API protected (super_admin / admin); prints login,
            check-out, check-in and admin API commands; --user-lookup gateway: the authtoken
            module looks users and permissions up in mod-users and mod-permissions through the
            gateway on every decision, as FOLIO's mod-authtoken
      """;

  private Main() {}

  public static void main(String[] args) {
    String command = args.length == 0 ? "help" : args[0];
    List<String> rest = Arrays.asList(args).subList(Math.min(1, args.length), args.length);
    try {
      if ("demo".equals(command)) {
        DemoCommand.run(rest);
      } else {
        out.info(USAGE);
        System.exit("help".equals(command) ? 0 : 2);
      }
    } catch (IllegalArgumentException e) {
      log.error("bad setting: {}", e.getMessage());
      System.exit(2);
    }
  }
}
