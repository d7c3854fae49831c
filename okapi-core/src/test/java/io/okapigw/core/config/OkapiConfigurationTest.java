package io.okapigw.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Settings;
import io.okapigw.core.deployment.DeploymentOptions;
import io.okapigw.core.storage.StorageOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Okapi's configuration keys (6.1.5 and 7.0.x, {@code doc/guide.md} "Okapi configuration") as Okapi
 * reads them: {@code -D} system properties first, then the {@code -conf} file; each mapped onto the
 * gateway's settings, refused with what to use instead, or accepted and noted.
 */
class OkapiConfigurationTest {

  @TempDir Path dir;

  private static Settings read(Map<String, String> properties, String... args) {
    return GatewaySettings.NODE.read(List.of(args), properties);
  }

  private static GatewayOptions options(Map<String, String> properties, String... args) {
    return GatewayOptions.from(read(properties, args));
  }

  private String conf(String json) throws IOException {
    Path file = Files.createTempFile(dir, "okapi", ".json");
    Files.writeString(file, json);
    return file.toString();
  }

  @Test
  void port_httpPortBeforePort_propertyBeforeConf_flagFirst() throws IOException {
    assertThat(options(Map.of("port", "9131")).port()).isEqualTo(9131);
    assertThat(options(Map.of("port", "9131", "http.port", "9132")).port()).isEqualTo(9132);
    String both = conf("{\"port\": 9133, \"http.port\": 9134}");
    assertThat(options(Map.of(), "-conf", both).port()).isEqualTo(9134);
    assertThat(options(Map.of("port", "9131"), "-conf", both).port()).isEqualTo(9131);
    assertThat(options(Map.of("port", "9131"), "--port", "9135").port()).isEqualTo(9135);
  }

  @Test
  void okapiurl_trailingSlashesDropped_ourOkapiUrlWinsAndTheOtherIsNoted() throws IOException {
    assertThat(options(Map.of("okapiurl", "http://okapi:9130/")).okapiUrl())
        .isEqualTo("http://okapi:9130");
    String file = conf("{\"okapiurl\": \"http://a:9130\", \"okapi-url\": \"http://b:9130\"}");
    Settings settings = read(Map.of(), "-conf", file);
    assertThat(GatewayOptions.from(settings).okapiUrl()).isEqualTo("http://b:9130");
    assertThat(settings.notes())
        .containsExactly(
            "okapiurl (-conf)=http://a:9130 is not used: okapi-url (-conf)=http://b:9130 wins");
  }

  @Test
  void storagePostgres_theDatabaseOfThePostgresKeys_withOkapisDefaults() {
    PgConnectOptions defaults = options(Map.of("storage", "postgres")).storage().postgres();
    assertThat(defaults.getHost()).isEqualTo("localhost");
    assertThat(defaults.getPort()).isEqualTo(5432);
    assertThat(defaults.getUser()).isEqualTo("okapi");
    assertThat(defaults.getPassword()).isEqualTo("okapi25");
    assertThat(defaults.getDatabase()).isEqualTo("okapi");
    assertThat(defaults.getSslMode()).isEqualTo(SslMode.DISABLE);

    PgConnectOptions given =
        options(
                Map.of(
                    "storage", "postgres",
                    "postgres_host", "db",
                    "postgres_port", "5433",
                    "postgres_username", "folio",
                    "postgres_password", "s3cret",
                    "postgres_database", "folio_okapi"))
            .storage()
            .postgres();
    assertThat(List.of(given.getHost(), given.getPort(), given.getUser(), given.getPassword()))
        .containsExactly("db", 5433, "folio", "s3cret");
    assertThat(given.getDatabase()).isEqualTo("folio_okapi");
  }

  @Test
  void storagePostgres_inTheConf_asOkapisHelmSecret() throws IOException {
    String file =
        conf(
            """
            {"storage": "postgres", "postgres_host": "pg", "postgres_port": "5432",
             "postgres_username": "okapi", "postgres_password": "pw",
             "postgres_database": "okapi", "okapiurl": "http://okapi:9130"}
            """);
    GatewayOptions options = options(Map.of(), "-conf", file);
    assertThat(options.storage().postgres().getHost()).isEqualTo("pg");
    assertThat(options.storage().describe()).isEqualTo("postgres okapi@pg:5432/okapi");
    assertThat(options.okapiUrl()).isEqualTo("http://okapi:9130");
  }

  @Test
  void postgresUser_okapisDeprecatedName_postgresUsernameWins() {
    assertThat(
            options(Map.of("storage", "postgres", "postgres_user", "old"))
                .storage()
                .postgres()
                .getUser())
        .isEqualTo("old");
    assertThat(
            options(
                    Map.of(
                        "storage", "postgres", "postgres_user", "old", "postgres_username", "new"))
                .storage()
                .postgres()
                .getUser())
        .isEqualTo("new");
  }

  @Test
  void postgresServerPem_tlsOneThreeVerifyFull_asOkapi() {
    String pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    StorageOptions storage =
        options(Map.of("storage", "postgres", "postgres_server_pem", pem)).storage();
    PgConnectOptions pg = storage.postgres();
    assertThat(pg.getSslMode()).isEqualTo(SslMode.VERIFY_FULL);
    assertThat(pg.getSslOptions().getEnabledSecureTransportProtocols()).containsExactly("TLSv1.3");
    assertThat(pg.getSslOptions().getHostnameVerificationAlgorithm()).isEqualTo("HTTPS");
    assertThat(storage.describe()).endsWith("(TLS)");
  }

  @Test
  void storageUri_stillOurs_butNotWithThePostgresDatabaseKeys() {
    StorageOptions uri = options(Map.of(), "--storage", "postgresql://u:p@h:5440/d").storage();
    assertThat(uri.postgres().getPort()).isEqualTo(5440);
    assertThatThrownBy(
            () -> options(Map.of("postgres_host", "db"), "--storage", "postgresql://u:p@h/d"))
        .hasMessageStartingWith(
            "postgres_host is not used with storage=postgresql://...: the URI names the database");
  }

  @Test
  void storageDescribed_neverWithThePassword() {
    assertThat(StorageOptions.of("postgresql://okapi:s3cret@db:5432/okapi").describe())
        .isEqualTo("postgres okapi@db:5432/okapi")
        .doesNotContain("s3cret");
    assertThat(options(Map.of("storage", "postgres", "postgres_password", "s3cret")).toString())
        .doesNotContain("s3cret");
  }

  @Test
  void storageMongo_refusedNamingWhatToUse() {
    assertThatThrownBy(() -> options(Map.of("storage", "mongo")))
        .hasMessageStartingWith("storage must be inmemory, postgres")
        .hasMessageContaining("Okapi's mongo is not supported: keep the registry in PostgreSQL")
        .hasMessageEndingWith("was 'mongo'");
  }

  @Test
  void postgresKeys_withStorageInmemory_notUsedAndSaidSo() {
    Settings settings = read(Map.of("postgres_host", "db", "postgres_password", "x"));
    assertThat(options(Map.of("postgres_host", "db")).storage().isPostgres()).isFalse();
    assertThat(StorageOptions.notes(settings))
        .containsExactly("postgres_host, postgres_password not used: storage is inmemory");
  }

  @Test
  void postgresDbInit_one_initFirst_asOkapi() {
    assertThat(
            options(Map.of("storage", "postgres", "postgres_db_init", "1")).storage().initFirst())
        .isTrue();
    assertThat(
            options(Map.of("storage", "postgres", "postgres_db_init", "0")).storage().initFirst())
        .isFalse();
    assertThatThrownBy(() -> options(Map.of("postgres_db_init", "yes")))
        .hasMessage("postgres_db_init must be a whole number, was 'yes'");
  }

  @Test
  void tokenCache_ontoTheAuthCache_millisecondsAsOkapi() {
    GatewayOptions options =
        options(Map.of("token_cache_ttl_ms", "60000", "token_cache_max_size", "5000"));
    assertThat(options.authCache().ttl()).isEqualTo(Duration.ofMinutes(1));
    assertThat(options.authCache().maxSize()).isEqualTo(5000);
    assertThat(
            options(Map.of("token_cache_ttl_ms", "60000"), "--auth.cache.ttl", "5m")
                .authCache()
                .ttl())
        .isEqualTo(Duration.ofMinutes(5));
    assertThatThrownBy(() -> options(Map.of("token_cache_ttl_ms", "3m")))
        .hasMessage("token_cache_ttl_ms must be a whole number of milliseconds, was '3m'");
  }

  @Test
  void nodeKeys_nodenameHealthPortLogWait() throws IOException {
    NodeOptions node =
        options(Map.of("nodename", "okapi-1", "healthPort", "9399", "log_wait_ms", "5000")).node();
    assertThat(node).isEqualTo(new NodeOptions("okapi-1", 9399, Duration.ofSeconds(5)));
    assertThat(options(Map.of()).node()).isEqualTo(NodeOptions.defaults());
    String file = conf("{\"healthPort\": 9398}");
    assertThat(options(Map.of(), "-conf", file).node().healthPort()).isEqualTo(9398);
  }

  @Test
  void loglevel_okapisLevels_otherRefused() {
    assertThat(read(Map.of("loglevel", "WARN")).get(OkapiKeys.LOGLEVEL)).isEqualTo("WARN");
    assertThatThrownBy(() -> options(Map.of("loglevel", "LOUD")))
        .hasMessage(
            "loglevel must be one of off, fatal, error, warn, info, debug, trace, all, was 'LOUD'");
  }

  @Test
  void enableSystemAuth_trueAccepted_falseRefusedSayingWhy() {
    assertThat(options(Map.of("enable_system_auth", "true")).port()).isEqualTo(9130);
    assertThatThrownBy(() -> options(Map.of("enable_system_auth", "false")))
        .hasMessageStartingWith("enable_system_auth must be true (false, Okapi's switch")
        .hasMessageContaining("a tenant that needs no auth has no auth module enabled");
  }

  @Test
  void traceHeaders_okapisKeyTurnsThemOn() {
    assertThat(options(Map.of("trace_headers", "false")).tracing().traceHeaders()).isFalse();
    assertThat(options(Map.of("trace_headers", "true")).tracing().traceHeaders()).isTrue();
    assertThat(options(Map.of()).tracing().traceHeaders()).isFalse();
    assertThatThrownBy(() -> options(Map.of("trace_headers", "yes please")))
        .hasMessageStartingWith("trace_headers must be");
  }

  @Test
  void deploymentKeys_readAsOkapiReadsThem() throws IOException {
    DeploymentOptions defaults = options(Map.of("port", "9130")).deployment();
    assertThat(defaults.portStart()).as("port + 1").isEqualTo(9131);
    assertThat(defaults.portEnd()).as("ten ports, as Okapi").isEqualTo(9141);
    assertThat(defaults.host()).isEqualTo("localhost");
    assertThat(defaults.containerHost()).isEqualTo("localhost");
    assertThat(defaults.dockerUrl()).isEqualTo("unix:///var/run/docker.sock");
    assertThat(defaults.dockerRegistries()).isNull();
    assertThat(defaults.waitIterations()).isNull();

    DeploymentOptions given =
        options(
                Map.of(
                    "port_start", "9200",
                    "port_end", "9210",
                    "dockerUrl", "tcp://docker:2375",
                    "containerHost", "docker",
                    "deploy.waitIterations", "3"))
            .deployment();
    assertThat(given.portStart()).isEqualTo(9200);
    assertThat(given.portEnd()).isEqualTo(9210);
    assertThat(given.dockerUrl()).isEqualTo("tcp://docker:2375");
    assertThat(given.containerHost()).isEqualTo("docker");
    assertThat(given.waitIterations()).isEqualTo(3);

    String file = conf("{\"port_start\": 9300, \"dockerUrl\": \"unix:///run/docker.sock\"}");
    DeploymentOptions fromConf = options(Map.of(), "-conf", file).deployment();
    assertThat(fromConf.portStart()).isEqualTo(9300);
    assertThat(fromConf.portEnd()).as("port_start + 10").isEqualTo(9310);
    assertThat(fromConf.dockerUrl()).isEqualTo("unix:///run/docker.sock");
  }

  @Test
  void deploymentKeys_badValues_refusedNamingThem() {
    assertThatThrownBy(() -> options(Map.of("port_start", "x")))
        .hasMessageStartingWith("port_start must be");
    assertThatThrownBy(() -> options(Map.of("port_start", "9200", "port_end", "9100")))
        .hasMessageContaining("deploy.port-start 9200, deploy.port-end 9100");
    assertThatThrownBy(() -> options(Map.of("dockerUrl", "docker:2375")))
        .hasMessageStartingWith("deploy.docker-url must start with unix://, tcp:// or http://");
    assertThatThrownBy(() -> options(Map.of("dockerRegistries", "{\"username\": \"u\"}")))
        .hasMessageStartingWith("dockerRegistries must be a JSON array of objects");
  }

  /**
   * The -conf file Okapi's own okapi.sh (its Debian package, {@code dist/okapi.sh}) generates with
   * {@code storage="postgres"}, as it wrote it: its {@code WARNING} line is accepted and said to be
   * unused, {@code dockerRegistries} read as Okapi reads it.
   */
  @Test
  void okapiShGeneratedConf_readAsOkapiReadsIt() throws IOException {
    String file =
        conf(
            """
            {
              "WARNING": "AUTOMATICALLY CREATED FILE, DO NOT EDIT!",
              "dockerRegistries": [
                {}
              ],
              "postgres_host": "localhost",
              "postgres_port": "9350",
              "postgres_username": "okapi",
              "postgres_password": "okapi25",
              "postgres_database": "deb"
            }
            """);
    Settings settings = read(Map.of("storage", "postgres", "http.port", "9356"), "-conf", file);
    GatewayOptions options = GatewayOptions.from(settings);
    assertThat(options.storage().describe()).isEqualTo("postgres okapi@localhost:9350/deb");
    assertThat(options.deployment().dockerRegistries()).containsExactly(new JsonObject());
    assertThat(options.deployment().portStart()).isEqualTo(9357);
    assertThat(settings.notes())
        .containsExactly(
            "WARNING is not used: the line Okapi's okapi.sh writes at the top of the -conf file"
                + " it generates (a comment)");
  }

  @Test
  void dockerRegistriesWithCredentials_read() throws IOException {
    String file =
        conf(
            "{\"dockerRegistries\": [{\"registry\": \"reg.example.org\", \"username\": \"u\","
                + " \"password\": \"p\"}]}");
    assertThat(options(Map.of(), "-conf", file).deployment().dockerRegistries())
        .containsExactly(
            new JsonObject()
                .put("registry", "reg.example.org")
                .put("username", "u")
                .put("password", "p"));
    assertThat(options(Map.of("dockerRegistries", "[]")).deployment().dockerRegistries()).isEmpty();
  }

  @Test
  void confValueAnObject_forASetting_refusedNamingIt() throws IOException {
    String file = conf("{\"port\": {\"http\": 9130}}");
    assertThatThrownBy(() -> options(Map.of(), "-conf", file))
        .hasMessage("port must be a string, number or boolean, was '{\"http\":9130}'");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "kube_config",
        "kube_server_url",
        "kube_server_pem",
        "kube_token",
        "kube_namespace",
        "kube_refresh_interval"
      })
  void kubernetesKeys_refused(String key) {
    assertThatThrownBy(() -> options(Map.of(key, "x")))
        .hasMessageStartingWith(key + ": this gateway does not look modules up in Kubernetes")
        .hasMessageContaining("POST /_/discovery/modules");
  }

  @ParameterizedTest
  @ValueSource(strings = {"mongo_host", "mongo_port", "mongo_db_name", "mongo_db_init"})
  void mongoKeys_refused(String key) {
    assertThatThrownBy(() -> options(Map.of(key, "x")))
        .hasMessageStartingWith(key + ": MongoDB storage is not supported");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "okapiVersion",
        "http_max_size_proxy",
        "http_max_size_system",
        "timer_wait_sync",
        "timer_wait_extra"
      })
  void okapisOtherKeys_refusedSayingWhy(String key) {
    assertThatThrownBy(() -> options(Map.of(key, "1"))).hasMessageStartingWith(key + ": ");
  }

  @Test
  void host_asProperty_okapisAndNoted_inTheConf_ours() throws IOException {
    Settings property = read(Map.of("host", "okapi"));
    assertThat(GatewayOptions.from(property).host()).isEqualTo("0.0.0.0");
    assertThat(property.notes()).singleElement().asString().startsWith("-Dhost is not used: ");
    String file = conf("{\"host\": \"127.0.0.1\"}");
    assertThat(options(Map.of(), "-conf", file).host()).isEqualTo("127.0.0.1");
  }

  @Test
  void langAndMode_acceptedAndNoted() throws IOException {
    String file = conf("{\"mode\": \"dev\"}");
    Settings settings = read(Map.of("lang", "en"), "-conf", file);
    assertThat(settings.notes())
        .containsExactlyInAnyOrder(
            "-Dlang is not used: messages are in English",
            "mode is not used: the command on the command line is run");
  }

  @Test
  void jvmAndLibraryProperties_notOkapiKeys_leftAlone() {
    Map<String, String> jvm =
        Map.of(
            "log4j.configurationFile", "/etc/log4j2.xml",
            "java.awt.headless", "true",
            "vertx.cacheDirBase", "/tmp/vertx",
            "hazelcast.logging.type", "log4j2");
    assertThat(read(jvm).notes()).isEmpty();
    assertThat(options(jvm).port()).isEqualTo(9130);
  }

  @Test
  void okapisHelmCommandLine_readAsOkapiReadsIt() {
    // folio-org/folio-helm-v2 charts/okapi values.yaml: JAVA_OPTIONS and the argument dev
    Map<String, String> javaOptions =
        Map.of(
            "java.awt.headless", "true",
            "storage", "postgres",
            "postgres_host", "pg.folio",
            "postgres_port", "5432",
            "postgres_username", "folio_admin",
            "postgres_password", "folio_pw",
            "postgres_database", "okapi_modules",
            "log4j.configurationFile", "/etc/log4j2.xml",
            "host", "okapi",
            "okapiurl", "http://okapi:9130");
    Settings settings = read(javaOptions);
    GatewayOptions options = GatewayOptions.from(settings);

    assertThat(options.port()).isEqualTo(9130);
    assertThat(options.host()).as("listens everywhere, as Okapi").isEqualTo("0.0.0.0");
    assertThat(options.okapiUrl()).isEqualTo("http://okapi:9130");
    assertThat(options.storage().describe())
        .isEqualTo("postgres folio_admin@pg.folio:5432/okapi_modules");
    assertThat(settings.notes()).singleElement().asString().startsWith("-Dhost is not used");
  }
}
