package io.okapigw.perf.demo;

import io.okapigw.core.Shutdown;
import io.okapigw.core.config.Settings;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code demo}: starts a {@link DemoStack} and tells the user how to use it. */
public final class DemoCommand {

  private static final Logger log = LoggerFactory.getLogger(DemoCommand.class);
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private DemoCommand() {
  }

  /** Runs until the process is stopped (Ctrl-C). */
  public static void run(List<String> args) {
    DemoOptions options = DemoOptions.from(Settings.fromArgs(args));
    Vertx vertx = Vertx.vertx();
    DemoStack.start(vertx, options)
        .onSuccess(stack -> out.info(instructions(stack)))
        .onFailure(e -> {
          log.error("demo failed to start: {}", e.getMessage());
          vertx.close().onComplete(v -> System.exit(1));
        });
    Shutdown.closeOnExit(vertx, Duration.ofSeconds(10));
  }

  static String instructions(DemoStack stack) {
    String url = stack.gatewayUrl();
    var data = stack.data();
    String item = data.itemBarcodes().get(0);
    String patron = data.activePatronBarcodes().get(0);
    String headers = "-H 'X-Okapi-Tenant: " + DemoOptions.TENANT + "' -H 'Content-Type: application/json'";
    String token = stack.options().auth() ? " -H \"X-Okapi-Token: $TOKEN\"" : "";
    return """

        Demo library running (%s): gateway %s, tenant %s, %d patrons, %d items.

        Log in as %s / %s and keep the token:
          TOKEN=$(curl -s -D - -o /dev/null -X POST %s/authn/login %s \\
            -d '{"username":"%s","password":"%s"}' | tr -d '\\r' | sed -n 's/^[Xx]-[Oo]kapi-[Tt]oken: //p')

        Check out an item (33 module-to-module calls behind it):
          curl -s -X POST %s/circulation/check-out-by-barcode %s%s \\
            -d '{"itemBarcode":"%s","userBarcode":"%s","servicePointId":"%s"}'

        Check it in again (21 calls):
          curl -s -X POST %s/circulation/check-in-by-barcode %s%s \\
            -d '{"itemBarcode":"%s","servicePointId":"%s"}'

        Auth cache:  curl -s %s/_/proxy/auth-cache
        Metrics:     curl -s %s/_/metrics
        Barcodes for JMeter: %s

        Ctrl-C stops everything.
        """.formatted(stack.options().mode(), url, DemoOptions.TENANT, data.patrons().size(),
        data.items().size(), DemoOptions.ADMIN, DemoOptions.ADMIN_PASSWORD, url, headers,
        DemoOptions.ADMIN, DemoOptions.ADMIN_PASSWORD,
        url, headers, token, item, patron, data.servicePointId(),
        url, headers, token, item, data.servicePointId(),
        url, url, stack.options().dataDir().resolve("barcodes.csv").toAbsolutePath());
  }

}
