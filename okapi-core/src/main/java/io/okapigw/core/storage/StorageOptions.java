package io.okapigw.core.storage;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the registry lives: in memory (cluster-wide maps when clustered) or a PostgreSQL database,
 * named either as Okapi names it ({@code storage=postgres} and the {@code postgres_*} keys, with
 * Okapi's defaults) or by one {@code postgresql://user:pass@host:port/db} URI.
 *
 * @param postgres the database to connect to; null for {@code inmemory}
 * @param initFirst drop the tables and create them empty before the start ({@code
 *     postgres_db_init=1}, Okapi's deprecated form of {@code initdatabase})
 */
public record StorageOptions(PgConnectOptions postgres, boolean initFirst) {

  public static final String INMEMORY = "inmemory";
  public static final String POSTGRES = "postgres";

  public static final Setting<String> STORAGE =
      Setting.text("storage", INMEMORY, "STORAGE")
          .alias("storage")
          .check(
              s -> s.equals(INMEMORY) || s.equals(POSTGRES) || isUri(s),
              "inmemory, postgres (the database of the postgres_* settings) or"
                  + " postgresql://user:pass@host:port/db (Okapi's mongo is not supported: keep"
                  + " the registry in PostgreSQL)",
              "inmemory, postgres or postgresql://user:pass@host:port/db")
          .about("where the registry lives")
          .details(
              "`inmemory`: cluster-wide maps when clustered, one backup. PostgreSQL: survives a"
                  + " full restart; several nodes share it.");

  public static final Setting<String> POSTGRES_HOST =
      Setting.text("postgres_host", "localhost", "HOST")
          .alias("postgres_host")
          .about("PostgreSQL host of `storage=postgres`");

  public static final Setting<Integer> POSTGRES_PORT =
      Setting.integer("postgres_port", 5432, 1, 65535)
          .alias("postgres_port")
          .about("PostgreSQL port of `storage=postgres`");

  public static final Setting<String> POSTGRES_USERNAME =
      Setting.text("postgres_username", "okapi", "USER")
          .alias("postgres_username")
          .alias("postgres_user")
          .about("PostgreSQL user of `storage=postgres`")
          .details("`postgres_user` is Okapi's deprecated name for it.");

  public static final Setting<String> POSTGRES_PASSWORD =
      Setting.text("postgres_password", "okapi25", "PASSWORD")
          .alias("postgres_password")
          .about("PostgreSQL password of `storage=postgres` (Okapi's default; never logged)");

  public static final Setting<String> POSTGRES_DATABASE =
      Setting.text("postgres_database", "okapi", "DATABASE")
          .alias("postgres_database")
          .about("PostgreSQL database of `storage=postgres`");

  public static final Setting<String> POSTGRES_SERVER_PEM =
      Setting.text("postgres_server_pem", null, "PEM")
          .alias("postgres_server_pem")
          .about(
              "the certificate(s), in PEM, that the PostgreSQL server's certificate must be signed"
                  + " by (or be); given, connections need TLSv1.3 and a valid certificate for the"
                  + " host name, as in Okapi")
          .details("The PEM text itself, not a file name. Also with a `postgresql://` URI.");

  public static final Setting<Integer> POSTGRES_DB_INIT =
      Setting.integer("postgres_db_init", 0, 0, 1)
          .alias("postgres_db_init")
          .about(
              "1: drop the tables and create them empty before the start (Okapi's deprecated"
                  + " form of `initdatabase`)");

  /** The settings naming the database of {@code storage=postgres}. */
  private static final List<Setting<?>> PARTS =
      List.of(
          POSTGRES_HOST, POSTGRES_PORT, POSTGRES_USERNAME, POSTGRES_PASSWORD, POSTGRES_DATABASE);

  /** The settings of the storage. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(
          STORAGE,
          POSTGRES_HOST,
          POSTGRES_PORT,
          POSTGRES_USERNAME,
          POSTGRES_PASSWORD,
          POSTGRES_DATABASE,
          POSTGRES_SERVER_PEM,
          POSTGRES_DB_INIT);

  /**
   * @return the registry in memory
   */
  public static StorageOptions inMemory() {
    return new StorageOptions(null, false);
  }

  /**
   * @param storage {@code inmemory} or {@code postgresql://user:pass@host:port/db}
   * @throws IllegalArgumentException for another text or a URI that does not parse
   */
  public static StorageOptions of(String storage) {
    return from(Settings.of(Map.of(STORAGE.key(), storage)));
  }

  /**
   * Reads the storage settings.
   *
   * @throws IllegalArgumentException naming a bad setting, or a {@code postgres_*} database setting
   *     given with a URI (which names the database itself)
   */
  public static StorageOptions from(Settings settings) {
    String storage = settings.get(STORAGE);
    boolean initFirst = settings.get(POSTGRES_DB_INIT) == 1;
    if (storage.equals(INMEMORY)) {
      return new StorageOptions(null, false);
    }
    PgConnectOptions connect = storage.equals(POSTGRES) ? parts(settings) : uri(storage, settings);
    String pem = settings.get(POSTGRES_SERVER_PEM);
    return new StorageOptions(pem == null ? connect : verified(connect, pem), initFirst);
  }

  /**
   * @return what a node should log about settings it accepted without using: the {@code postgres_*}
   *     settings with {@code storage=inmemory} (Okapi ignores them without a word)
   */
  public static List<String> notes(Settings settings) {
    if (!settings.get(STORAGE).equals(INMEMORY)) {
      return List.of();
    }
    List<String> unused =
        List.of(PARTS, List.of(POSTGRES_SERVER_PEM, POSTGRES_DB_INIT)).stream()
            .flatMap(List::stream)
            .filter(settings::has)
            .map(Setting::key)
            .toList();
    return unused.isEmpty()
        ? List.of()
        : List.of(String.join(", ", unused) + " not used: storage is inmemory");
  }

  private static PgConnectOptions parts(Settings settings) {
    return new PgConnectOptions()
        .setHost(settings.get(POSTGRES_HOST))
        .setPort(settings.get(POSTGRES_PORT))
        .setUser(settings.get(POSTGRES_USERNAME))
        .setPassword(settings.get(POSTGRES_PASSWORD))
        .setDatabase(settings.get(POSTGRES_DATABASE));
  }

  private static PgConnectOptions uri(String storage, Settings settings) {
    for (Setting<?> part : PARTS) {
      if (settings.has(part)) {
        throw new IllegalArgumentException(
            part.key()
                + " is not used with storage=postgresql://...: the URI names the database; give"
                + " storage=postgres with the postgres_* settings, or the URI alone");
      }
    }
    try {
      return PgConnectOptions.fromUri(storage);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "storage must be a postgresql://user:pass@host:port/db URI, was '" + storage + "'");
    }
  }

  /** Okapi's TLS for {@code postgres_server_pem}: TLSv1.3, the host name checked. */
  private static PgConnectOptions verified(PgConnectOptions connect, String pem) {
    ClientSSLOptions ssl =
        new ClientSSLOptions()
            .setHostnameVerificationAlgorithm("HTTPS")
            .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(pem)))
            .setEnabledSecureTransportProtocols(Set.of("TLSv1.3"));
    return connect.setSslMode(SslMode.VERIFY_FULL).setSslOptions(ssl);
  }

  private static boolean isUri(String storage) {
    return storage.startsWith("postgresql://") || storage.startsWith("postgres://");
  }

  /**
   * @return whether the registry is in PostgreSQL
   */
  public boolean isPostgres() {
    return postgres != null;
  }

  /**
   * @return the storage for logs: {@code inmemory} or {@code postgres user@host:port/db}, never the
   *     password
   */
  public String describe() {
    if (postgres == null) {
      return INMEMORY;
    }
    return "postgres "
        + postgres.getUser()
        + "@"
        + postgres.getHost()
        + ":"
        + postgres.getPort()
        + "/"
        + postgres.getDatabase()
        + (postgres.getSslMode() == SslMode.VERIFY_FULL ? " (TLS)" : "");
  }

  @Override
  public String toString() {
    return describe();
  }
}
