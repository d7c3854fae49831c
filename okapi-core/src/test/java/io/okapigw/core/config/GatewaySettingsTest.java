package io.okapigw.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Settings;
import io.okapigw.core.admin.AdminOptions;
import io.okapigw.core.cluster.ClusterOptions;
import io.okapigw.core.tenantinit.TenantInitOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gateway's flags and conf file follow the one rule set of the config module. */
class GatewaySettingsTest {

  private static GatewayOptions dev(String... args) {
    return GatewayOptions.from(Settings.fromArgs(List.of(args)));
  }

  @Test
  void proxyIdleTimeout_inDays_accepted() {
    GatewayOptions options = dev("--proxy.idle-timeout", "1d", "--server.idle-timeout", "0");

    assertThat(options.upstream().idleTimeout()).isEqualTo(Duration.ofDays(1));
  }

  @Test
  void authCacheEnabled_onOff_accepted() {
    assertThat(dev("--auth.cache.enabled", "off").authCache().enabled()).isFalse();
    assertThat(dev("--auth.cache.enabled", "on").authCache().enabled()).isTrue();
  }

  @Test
  void everyDuration_sameForms_gatewayAndAuthCacheAlike() {
    GatewayOptions options =
        dev(
            "--auth.cache.ttl", "1d",
            "--proxy.connect-timeout", "500ms",
            "--cluster.ack-timeout", "3s",
            "--tenant.init-timeout", "1h");

    assertThat(options.authCache().ttl()).isEqualTo(Duration.ofDays(1));
    assertThat(options.upstream().connectTimeout()).isEqualTo(Duration.ofMillis(500));
    assertThat(options.clusterAckTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(options.tenantInit().timeout()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void bareNumberDuration_refusedNamingTheKeyWithAnExample() {
    assertThatThrownBy(() -> dev("--proxy.idle-timeout", "60"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("proxy.idle-timeout must be a duration: a whole number and a unit")
        .hasMessageContaining("such as 500ms, 30s")
        .hasMessageEndingWith(", was '60'");
    assertThatThrownBy(() -> dev("--auth.cache.ttl", "180"))
        .hasMessageStartingWith("auth.cache.ttl must be a duration");
  }

  @Test
  void maxHeaderSize_bytesOrUnit() {
    assertThat(dev("--max-header-size", "32KB").maxHeaderSize()).isEqualTo(32 * 1024);
    assertThat(dev("--max-header-size", "2048").maxHeaderSize()).isEqualTo(2048);
    assertThatThrownBy(() -> dev("--max-header-size", "2MB"))
        .hasMessage("max-header-size must be between 1KB and 1MB, was '2MB'");
  }

  @Test
  void authParallel_choice() {
    assertThat(dev("--auth.parallel", "SAFE").authParallel()).isEqualTo(AuthParallel.SAFE);
    assertThatThrownBy(() -> dev("--auth.parallel", "fast"))
        .hasMessage("auth.parallel must be one of off, safe, was 'fast'");
  }

  @Test
  void storage_checkedNamingTheKey() {
    assertThatThrownBy(() -> dev("--storage", "mysql://db"))
        .hasMessage(
            "storage must be inmemory, postgres (the database of the postgres_* settings) or"
                + " postgresql://user:pass@host:port/db (Okapi's mongo is not supported: keep the"
                + " registry in PostgreSQL), was 'mysql://db'");
  }

  @Test
  void unknownKey_refusedListingTheKnown_clusterKeysOnlyForCluster() {
    assertThatThrownBy(() -> dev("--proxy.idle-timout", "1s"))
        .hasMessageStartingWith("unknown setting 'proxy.idle-timout'; known settings: ")
        .hasMessageContaining("proxy.idle-timeout")
        .message()
        .as("Okapi's keys that are only noted or refused are no settings to suggest")
        .doesNotContain("WARNING")
        .doesNotContain(" mode,");
    assertThatThrownBy(() -> GatewaySettings.NODE.read(List.of("--members", "a:1")))
        .hasMessageStartingWith("unknown setting 'members'");
    Settings cluster = GatewaySettings.ALL.read(List.of("--members", "a:1,b:2", "--port", "9131"));
    assertThat(ClusterOptions.from(cluster).members()).containsExactly("a:1", "b:2");
    assertThat(GatewayOptions.from(cluster.except(ClusterOptions.SETTINGS)).port()).isEqualTo(9131);
  }

  @Test
  void members_badEntry_refusedNamingTheKey() {
    assertThatThrownBy(() -> ClusterOptions.from(Settings.fromArgs(List.of("--members", "a:1,b"))))
        .hasMessage("members must be host:port,host:port,... (ports 1-65535), was 'a:1,b'");
  }

  @Test
  void conf_readAndFlagsWin(@TempDir Path dir) throws IOException {
    Path conf = dir.resolve("gateway.json");
    Files.writeString(
        conf,
        "{\"port\": 9131, \"auth.cache.ttl\": \"1d\", \"auth.cache.enabled\": \"no\","
            + " \"admin.public\": true}");

    GatewayOptions options = dev("-conf", conf.toString(), "--port", "9132");

    assertThat(options.port()).isEqualTo(9132);
    assertThat(options.authCache().ttl()).isEqualTo(Duration.ofDays(1));
    assertThat(options.authCache().enabled()).isFalse();
    assertThat(options.admin().servedOnPublic()).isTrue();
  }

  @Test
  void noSettings_theDeclaredDefaults() {
    GatewayOptions options = dev();

    assertThat(options.port()).isEqualTo(GatewaySettings.PORT.defaultValue()).isEqualTo(9130);
    assertThat(options.upstream().idleTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(options.maxHeaderSize()).isEqualTo(16 * 1024);
    assertThat(options.admin()).isEqualTo(AdminOptions.defaults());
    assertThat(options.tenantInit()).isEqualTo(TenantInitOptions.defaults());
  }
}
