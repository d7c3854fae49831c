package io.okapigw.demo;

import io.okapigw.config.Settings;
import io.okapigw.config.StartDeadline;
import io.okapigw.core.Shutdown;
import io.okapigw.core.logging.JulBridge;
import io.okapigw.folio.register.SuperAdmin;
import io.vertx.core.Vertx;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code demo}: starts a {@link DemoStack} and tells the user how to use it. */
public final class DemoCommand {

  private static final Logger log = LoggerFactory.getLogger(DemoCommand.class);
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private DemoCommand() {}

  /**
   * Starts the demo, which runs until the process is stopped (Ctrl-C).
   *
   * @param settings read by {@link DemoOptions#SPEC}
   */
  public static void run(Settings settings) {
    JulBridge.install();
    DemoOptions options = DemoOptions.from(settings);
    Jaeger jaeger = options.tracing() ? DemoTracing.startJaeger(options) : null;
    StartDeadline deadline =
        StartDeadline.arm("demo", settings.get(StartDeadline.START_TIMEOUT), log::error);
    Vertx vertx = Vertx.vertx();
    DemoStack.start(vertx, options, jaeger == null ? null : jaeger.otlpEndpoint())
        .onSuccess(
            stack -> {
              deadline.started();
              if (!options.auth()) {
                log.warn(
                    "admin API OPEN (--auth false): anyone who can reach {} can register modules"
                        + " and re-point discovery",
                    stack.gatewayUrl());
              }
              out.info(instructions(stack));
              if (options.tracing()) {
                DemoTracing.showCheckOut(vertx, stack, jaeger);
              }
            })
        .onFailure(e -> deadline.failed(e.getMessage()));
    Shutdown.closeOnExit(vertx, Duration.ofSeconds(10));
  }

  static String instructions(DemoStack stack) {
    String url = stack.gatewayUrl();
    var data = stack.data();
    String item = data.itemBarcodes().get(0);
    String patron = data.activePatronBarcodes().get(0);
    String headers =
        "-H 'X-Okapi-Tenant: " + DemoOptions.TENANT + "' -H 'Content-Type: application/json'";
    boolean auth = stack.options().auth();
    String token = auth ? " -H \"X-Okapi-Token: $TOKEN\"" : "";
    return """

        Demo library running (%s): gateway %s, tenant %s, %d patrons, %d items.
        %s
        Check out an item (33 module-to-module calls behind it):
          curl -s -X POST %s/circulation/check-out-by-barcode %s%s \\
            -d '{"itemBarcode":"%s","userBarcode":"%s","servicePointId":"%s"}'

        Check it in again (21 calls):
          curl -s -X POST %s/circulation/check-in-by-barcode %s%s \\
            -d '{"itemBarcode":"%s","servicePointId":"%s"}'
        %s
        Metrics (no token needed):
          curl -s %s/_/metrics
        Barcodes for JMeter: %s

        Ctrl-C stops everything.
        """
        .formatted(
            stack.options().mode(),
            url,
            DemoOptions.TENANT,
            data.patrons().size(),
            data.items().size(),
            auth ? login(url, headers) : "",
            url,
            headers,
            token,
            item,
            patron,
            data.servicePointId(),
            url,
            headers,
            token,
            item,
            data.servicePointId(),
            adminApi(auth, url),
            url,
            stack.options().dataDir().resolve("barcodes.csv").toAbsolutePath());
  }

  private static String login(String url, String headers) {
    return """

        Log in as %s / %s and keep the token:
          TOKEN=$(curl -s -D - -o /dev/null -X POST %s/authn/login %s \\
            -d '{"username":"%s","password":"%s"}' | tr -d '\\r' | sed -n 's/^[Xx]-[Oo]kapi-[Tt]oken: //p')
        """
        .formatted(
            DemoOptions.ADMIN,
            DemoOptions.ADMIN_PASSWORD,
            url,
            headers,
            DemoOptions.ADMIN,
            DemoOptions.ADMIN_PASSWORD);
  }

  /** How to call the admin API: with the super admin's token once it is protected. */
  static String adminApi(boolean isProtected, String url) {
    if (!isProtected) {
      return """

          The admin API is open (no auth module). List the tenants, read the auth cache:
            curl -s %s/_/proxy/tenants
            curl -s %s/_/proxy/auth-cache
          """
          .formatted(url, url);
    }
    return """

        The admin API (/_/) is protected; without a token it answers 401:
          curl -s -i %s/_/proxy/tenants
        Log in as %s / %s (tenant %s) and keep that token:
          ADMIN_TOKEN=$(curl -s -D - -o /dev/null -X POST %s/authn/login -H 'X-Okapi-Tenant: %s' \\
            -H 'Content-Type: application/json' -d '{"username":"%s","password":"%s"}' \\
            | tr -d '\\r' | sed -n 's/^[Xx]-[Oo]kapi-[Tt]oken: //p')
        List the tenants, read the auth cache with it (docs/operations.md, "Securing a deployment"):
          curl -s -H "X-Okapi-Token: $ADMIN_TOKEN" %s/_/proxy/tenants
          curl -s -H "X-Okapi-Token: $ADMIN_TOKEN" %s/_/proxy/auth-cache
        """
        .formatted(
            url,
            DemoOptions.SUPER_ADMIN,
            DemoOptions.SUPER_ADMIN_PASSWORD,
            SuperAdmin.TENANT,
            url,
            SuperAdmin.TENANT,
            DemoOptions.SUPER_ADMIN,
            DemoOptions.SUPER_ADMIN_PASSWORD,
            url,
            url);
  }
}
