package io.okapigw.folio.containers;

import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.folio.register.SuperAdmin;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code register}: the one-shot job of the container cluster (see {@link RegisterJob}). Exits 0
 * when the tenant is ready, 1 with the failing step otherwise.
 */
public final class RegisterCommand {

  private static final Logger log = LoggerFactory.getLogger(RegisterCommand.class);
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  /** The settings of {@code register}. */
  public static final SettingsSpec SPEC = RegisterOptions.SPEC;

  /** The password docker/docker-compose.yml gives both users unless told otherwise. */
  static final String DEMO_PASSWORD = "admin";

  private RegisterCommand() {}

  /** Runs the job and exits the JVM. */
  public static void run(Settings settings) {
    RegisterOptions options = RegisterOptions.from(settings);
    Vertx vertx = Vertx.vertx();
    RegisterJob.run(vertx, options)
        .onComplete(
            ar -> {
              if (ar.succeeded()) {
                out.info(instructions(options, ar.result()));
              } else {
                log.error("register failed: {}", ar.cause().getMessage());
              }
              vertx.close().onComplete(v -> System.exit(ar.succeeded() ? 0 : 1));
            });
  }

  static String instructions(RegisterOptions options, JsonObject manifest) {
    String url = options.publicUrl();
    String headers =
        "-H 'X-Okapi-Tenant: " + options.tenant() + "' -H 'Content-Type: application/json'";
    String servicePoint = manifest.getString("servicePointId");
    return """

        Tenant %s ready: %d modules enabled, login of %s through the gateway works.

        Log in and keep the token:
          %s
          TOKEN=$(curl -s -D - -o /dev/null -X POST %s/authn/login %s \\
            -d "{\\"username\\":\\"%s\\",\\"password\\":\\"$DEMO_PASSWORD\\"}" \\
            | tr -d '\\r' | sed -n 's/^[Xx]-[Oo]kapi-[Tt]oken: //p')
        Check out, then in (any node, e.g. 9131 for the second):
          curl -s -X POST %s/circulation/check-out-by-barcode %s -H "X-Okapi-Token: $TOKEN" \\
            -d '{"itemBarcode":"I000000","userBarcode":"P000001","servicePointId":"%s"}'
          curl -s -X POST %s/circulation/check-in-by-barcode %s -H "X-Okapi-Token: $TOKEN" \\
            -d '{"itemBarcode":"I000000","servicePointId":"%s"}'
        %s"""
        .formatted(
            options.tenant(),
            manifest.getJsonArray("modules").size() + 1,
            options.username(),
            passwordLine("DEMO_PASSWORD", options.username(), options.password()),
            url,
            headers,
            options.username(),
            url,
            headers,
            servicePoint,
            url,
            headers,
            servicePoint,
            adminApi(options));
  }

  /**
   * The shell line setting {@code variable} to the password, so that the commands after it paste as
   * they are: the demo value itself (it is in docker/docker-compose.yml), any other value asked for
   * at the prompt (never printed).
   */
  static String passwordLine(String variable, String username, String password) {
    if (DEMO_PASSWORD.equals(password)) {
      return variable + "=" + DEMO_PASSWORD + "   # the demo value (docker/docker-compose.yml)";
    }
    return "read -rsp 'password of " + username + ": ' " + variable + "; echo";
  }

  /** How to call the admin API as the super admin, when the job knew the credentials. */
  static String adminApi(RegisterOptions options) {
    if (options.superAdmin().isEmpty()) {
      return "";
    }
    String url = options.publicUrl();
    return """
        The admin API %s: log in as %s, then call it with that token (without one: 401):
          %s
          ADMIN_TOKEN=$(curl -s -D - -o /dev/null -X POST %s/authn/login \\
            -H 'X-Okapi-Tenant: %s' -H 'Content-Type: application/json' \\
            -d "{\\"username\\":\\"%s\\",\\"password\\":\\"$SUPER_ADMIN_PASSWORD\\"}" \\
            | tr -d '\\r' | sed -n 's/^[Xx]-[Oo]kapi-[Tt]oken: //p')
          curl -s -H "X-Okapi-Token: $ADMIN_TOKEN" %s/_/proxy/tenants
        """
        .formatted(
            options.protectAdmin() ? "is protected" : "may be protected",
            options.superAdmin().get().username(),
            passwordLine(
                "SUPER_ADMIN_PASSWORD",
                options.superAdmin().get().username(),
                options.superAdmin().get().password()),
            url,
            SuperAdmin.TENANT,
            options.superAdmin().get().username(),
            url);
  }
}
