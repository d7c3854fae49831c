package io.okapigw.authtoken;

import io.okapigw.config.Settings;
import io.okapigw.config.StartDeadline;
import io.vertx.core.Vertx;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code java -jar authtoken-module-fat.jar [options]}: see {@link CommandLine#USAGE}. Exits with
 * status 2 and a message naming the setting if a setting is bad, 1 if the module fails to start or
 * does not listen within {@code --start-timeout}.
 */
public final class Main {
  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  /** Plain-text output for the user (usage, bad settings). */
  private static final Logger OUT = LoggerFactory.getLogger("io.okapigw.cli");

  private Main() {}

  /**
   * @param args command-line options
   */
  public static void main(String[] args) {
    if (CommandLine.wantsHelp(args)) {
      OUT.info(CommandLine.USAGE);
      return;
    }
    AuthtokenOptions options;
    Settings settings;
    try {
      settings = AuthtokenOptions.SETTINGS.read(List.of(args));
      options = AuthtokenOptions.from(settings, System::getenv);
    } catch (IllegalArgumentException e) {
      OUT.error("authtoken: {}\n{}", e.getMessage(), CommandLine.USAGE);
      System.exit(2);
      return;
    }
    StartDeadline deadline =
        StartDeadline.arm(
            "authtoken module", settings.get(StartDeadline.START_TIMEOUT), LOG::error);
    Vertx vertx = Vertx.vertx();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> closeWithin(vertx, 10)));
    vertx
        .deployVerticle(new AuthtokenVerticle(options))
        .onSuccess(id -> deadline.started())
        .onFailure(e -> deadline.failed(e.getMessage()));
  }

  /** Ctrl-C: closes the module, giving up after {@code seconds}. */
  private static void closeWithin(Vertx vertx, int seconds) {
    try {
      vertx.close().await(seconds, java.util.concurrent.TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("shutdown did not finish within {} s: {}", seconds, e.toString());
    }
  }
}
