package io.okapigw.authtoken;

import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code java -jar authtoken-module-fat.jar [options]}: see {@link CommandLine#USAGE}.
 * Exits with status 2 and a message naming the setting if a setting is bad, 1 if the
 * module fails to start.
 */
public final class Main {
  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  private Main() {
  }

  /** @param args command-line options */
  public static void main(String[] args) {
    if (CommandLine.wantsHelp(args)) {
      System.out.println(CommandLine.USAGE);
      return;
    }
    AuthtokenOptions options;
    try {
      options = CommandLine.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("authtoken: " + e.getMessage());
      System.err.println(CommandLine.USAGE);
      System.exit(2);
      return;
    }
    Vertx vertx = Vertx.vertx();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> vertx.close().await()));
    vertx.deployVerticle(new AuthtokenVerticle(options)).onFailure(e -> {
      LOG.error("authtoken module failed to start: {}", e.getMessage());
      System.exit(1);
    });
  }
}
