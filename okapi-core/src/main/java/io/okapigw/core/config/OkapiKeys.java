package io.okapigw.core.config;

import io.okapigw.config.Setting;
import io.okapigw.config.SettingsSpec;
import java.util.List;
import java.util.Locale;

/**
 * Okapi's configuration keys that have no setting of their own here: the three that only Okapi's
 * default value of fits this gateway, and those refused (what Okapi would do with them, this
 * gateway does not) or accepted without effect. Okapi's keys that are settings here are declared
 * with the settings, as their aliases (Okapi 6.1.5 and 7.0.x, {@code doc/guide.md} "Okapi
 * configuration").
 */
public final class OkapiKeys {

  private static final String NO_KUBERNETES =
      "this gateway does not look modules up in Kubernetes: register each module's Service URL"
          + " once with POST /_/discovery/modules";

  private static final String NO_MONGO =
      "MongoDB storage is not supported: keep the registry in PostgreSQL (storage=postgres and"
          + " the postgres_* settings)";

  public static final Setting<String> LOGLEVEL =
      Setting.text("loglevel", null, "LEVEL")
          .alias("loglevel")
          .check(OkapiKeys::isLevel, "one of off, fatal, error, warn, info, debug, trace, all")
          .shownDefault("info (log4j2.xml), or OKAPI_LOGLEVEL")
          .about(
              "the level of every logger, as Okapi sets it; without it the environment's"
                  + " `OKAPI_LOGLEVEL`, else `log4j2.xml` (or `-Dlog4j.configurationFile`) decides");

  public static final Setting<Boolean> ENABLE_SYSTEM_AUTH =
      Setting.bool("enable_system_auth", true)
          .alias("enable_system_auth")
          .check(
              on -> on,
              "true (false, Okapi's switch that takes the auth filter out of every request and"
                  + " system call, is not supported: a tenant that needs no auth has no auth"
                  + " module enabled)",
              "true")
          .about("Okapi's switch; only `true`, how this gateway works, is accepted");

  /** Okapi's keys without a setting of their own here. */
  public static final SettingsSpec SPEC =
      SettingsSpec.of(LOGLEVEL, ENABLE_SYSTEM_AUTH)
          .refuse("kube_config", NO_KUBERNETES)
          .refuse("kube_server_url", NO_KUBERNETES)
          .refuse("kube_server_pem", NO_KUBERNETES)
          .refuse("kube_token", NO_KUBERNETES)
          .refuse("kube_namespace", NO_KUBERNETES)
          .refuse("kube_refresh_interval", NO_KUBERNETES)
          .refuse("mongo_host", NO_MONGO)
          .refuse("mongo_port", NO_MONGO)
          .refuse("mongo_db_name", NO_MONGO)
          .refuse("mongo_db_init", NO_MONGO)
          .refuse(
              "okapiVersion",
              "the gateway's own module carries the gateway's version (okapi-X.Y.Z, as GET"
                  + " /_/version says); it cannot be set")
          .refuse(
              "http_max_size_proxy",
              "Okapi 7's pool of proxy connections: use proxy.max-connections (per module"
                  + " instance and event loop)")
          .refuse(
              "http_max_size_system",
              "Okapi 7's pool for system calls has no setting here: remove it")
          .refuse(
              "timer_wait_sync",
              "Okapi 7's timer option: here a timer runs once per cluster on fixed instants, as"
                  + " Okapi's timer_wait_sync=false (a call that outlasts the period overlaps the"
                  + " next): remove it")
          .refuse(
              "timer_wait_extra",
              "Okapi 7's random timer delay: here each timer has a fixed phase of its own that"
                  + " spreads the runs: remove it")
          .note(
              "host",
              "Okapi's host names the node and deployed modules' URLs: here deploy.host does (the"
                  + " node listens on every interface; set the interface with --host)")
          .note("lang", "messages are in English")
          .note(
              "WARNING",
              "the line Okapi's okapi.sh writes at the top of the -conf file it generates (a"
                  + " comment)")
          .note("mode", "the command on the command line is run");

  private OkapiKeys() {}

  private static boolean isLevel(String level) {
    return List.of("off", "fatal", "error", "warn", "info", "debug", "trace", "all")
        .contains(level.trim().toLowerCase(Locale.ROOT));
  }
}
