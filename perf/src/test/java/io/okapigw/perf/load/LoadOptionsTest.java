package io.okapigw.perf.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Flags of {@code checkout-checkin} and the loopback-only rule. */
class LoadOptionsTest {

  private static LoadOptions parse(String... args) {
    return LoadOptions.from(LoadOptions.SPEC.read(List.of(args)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://localhost:9130",
        "http://LOCALHOST",
        "http://127.0.0.1:9130",
        "http://127.255.3.4:80/",
        "http://[::1]:9130"
      })
  void gateway_loopback_isAccepted(String url) {
    assertThat(parse("--gateway", url).gateways()).containsExactly(URI.create(url));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://10.0.0.1:9130",
        "http://128.0.0.1:9130",
        "http://example.org:9130",
        "http://localhost.example.org",
        "http://[::2]:9130",
        "http://0127.0.0.1:9130",
        "http://127.0.0.256:9130",
        "http://2130706433:9130"
      })
  void gateway_notLoopback_isRefusedNamingTheFlag(String url) {
    assertThatThrownBy(() -> parse("--gateway", url))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--gateway");
  }

  @Test
  void gateway_list_isEveryNodeInOrder() {
    assertThat(parse("--gateway", "http://127.0.0.1:9130, http://127.0.0.1:9131").gateways())
        .containsExactly(URI.create("http://127.0.0.1:9130"), URI.create("http://127.0.0.1:9131"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1:9130,",
        "http://127.0.0.1:9130,,http://[::1]:1",
        "http://127.0.0.1:9130,http://127.0.0.1:9130",
        "http://127.0.0.1:9130,http://10.0.0.1:1"
      })
  void gateway_listWithAnEmptyRepeatedOrRemoteEntry_isRefusedNamingTheFlag(String list) {
    assertThatThrownBy(() -> parse("--gateway", list))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--gateway");
  }

  @Test
  void gateway_privateAddress_isRefusedSayingWhy() {
    assertThatThrownBy(() -> parse("--gateway", "http://10.0.0.1:9130"))
        .hasMessage(
            "--gateway http://10.0.0.1:9130: host 10.0.0.1 is not a loopback address;"
                + " only 127.0.0.0/8, ::1 and localhost may be load-tested");
  }

  @Test
  void gateway_notHttp_isRefused() {
    assertThatThrownBy(() -> parse("--gateway", "https://localhost:9130"))
        .hasMessageContaining("--gateway must be an http://host:port URL");
  }

  @Test
  void defaults_areTheDemosAndBounded() {
    LoadOptions o = parse();

    assertThat(o.gateways()).containsExactly(URI.create("http://localhost:9130"));
    assertThat(o.users()).containsExactly(8);
    assertThat(o.duration()).isEqualTo(Duration.ofSeconds(60));
    assertThat(o.maxOperations()).isEqualTo(1_000_000);
    assertThat(o.barcodes()).hasToString("data/demo/barcodes.csv");
    assertThat(o.compare()).isFalse();
  }

  @Test
  void users_list_isParsedInOrder() {
    assertThat(parse("--users", "1,8,32").users()).containsExactly(1, 8, 32);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "1001", "8,x", "-1", "1,,8"})
  void users_bad_isRefusedNamingTheSetting(String users) {
    assertThatThrownBy(() -> parse("--users", users))
        .hasMessageStartingWith("users must be ")
        .hasMessageEndingWith(", was '" + users + "'");
  }

  @Test
  void documentedExamples_read() {
    LoadOptions o =
        parse(
            "--gateway",
            "http://localhost:9130",
            "--tenant",
            "diku",
            "--users",
            "1,8,32",
            "--duration",
            "60s",
            "--warmup",
            "5s",
            "--barcodes",
            "/tmp/barcodes.csv",
            "--max-operations",
            "1000000",
            "--probe-rounds",
            "3");
    assertThat(o.users()).containsExactly(1, 8, 32);
    assertThat(o.duration()).isEqualTo(Duration.ofSeconds(60));
    assertThat(o.barcodes()).hasToString("/tmp/barcodes.csv");
    LoadOptions compare =
        parse("--compare", "--user-lookup", "gateway", "--users", "8", "--jvm-warmup", "15s");
    assertThat(compare.compare()).isTrue();
    assertThat(compare.jvmWarmup()).isEqualTo(Duration.ofSeconds(15));
  }

  @Test
  void duration_bareNumber_isRefusedNamingTheSetting() {
    assertThatThrownBy(() -> parse("--duration", "60"))
        .hasMessageStartingWith("duration must be a duration: a whole number and a unit")
        .hasMessageEndingWith(", was '60'");
  }

  @Test
  void compare_bareFlag_meansOnAndRefusesAGateway() {
    assertThat(parse("--compare", "--users", "1").compare()).isTrue();
    assertThatThrownBy(() -> parse("--compare", "--gateway", "http://localhost:1"))
        .hasMessageContaining("--gateway cannot be used with --compare");
  }

  @Test
  void slices_withoutCompare_areRefused() {
    assertThatThrownBy(() -> parse("--slices", "3")).hasMessageContaining("--slices only");
  }

  @Test
  void vs_givenWithAGateway_isTheOtherGatewayAndAllowsSlices() {
    LoadOptions o =
        parse(
            "--gateway", "http://127.0.0.1:9270", "--vs", "http://127.0.0.1:9260", "--slices", "3");

    assertThat(o.gateways()).containsExactly(URI.create("http://127.0.0.1:9270"));
    assertThat(o.vs()).containsExactly(URI.create("http://127.0.0.1:9260"));
    assertThat(o.slices()).isEqualTo(3);
    assertThat(parse("--gateway", "http://127.0.0.1:9270").vs()).isEmpty();
  }

  @Test
  void vs_notLoopback_isRefusedNamingTheFlag() {
    assertThatThrownBy(() -> parse("--vs", "http://10.0.0.1:9130"))
        .hasMessageStartingWith("--vs http://10.0.0.1:9130: host 10.0.0.1 is not a loopback");
  }

  @Test
  void vs_sameAsTheGateway_isRefused() {
    assertThatThrownBy(
            () -> parse("--gateway", "http://127.0.0.1:9130", "--vs", "http://127.0.0.1:9130"))
        .hasMessageContaining("--gateway names too");
  }

  @Test
  void vs_withCompare_isRefused() {
    assertThatThrownBy(() -> parse("--compare", "--vs", "http://127.0.0.1:9130"))
        .hasMessageContaining("--vs cannot be used with --compare");
  }

  @Test
  void vs_slicesShorterThanASecond_areRefused() {
    assertThatThrownBy(
            () -> parse("--vs", "http://127.0.0.1:9260", "--duration", "5s", "--slices", "6"))
        .hasMessageContaining("--slices 6");
  }

  @Test
  void userLookup_onlyWithCompare_andOnlyLocalOrGateway() {
    assertThat(parse("--compare", "--user-lookup", "gateway").userLookup()).isTrue();
    assertThat(parse("--compare").userLookup()).isFalse();
    assertThatThrownBy(() -> parse("--user-lookup", "gateway"))
        .hasMessageContaining("--user-lookup only applies with --compare");
    assertThatThrownBy(() -> parse("--compare", "--user-lookup", "remote"))
        .hasMessageContaining("user-lookup must be one of local, gateway");
  }

  @Test
  void slices_shorterThanASecond_areRefused() {
    assertThatThrownBy(() -> parse("--compare", "--duration", "5s", "--slices", "6"))
        .hasMessageContaining("--slices 6");
  }

  @Test
  void barcodesAndItems_together_areRefused() {
    assertThatThrownBy(() -> parse("--barcodes", "a.csv", "--items", "10"))
        .hasMessageContaining("--barcodes FILE or --items N");
  }

  @Test
  void items_given_meansNoCsv() {
    assertThat(parse("--items", "10").barcodes()).isNull();
  }

  @Test
  void unknownFlag_isRefusedByName() {
    assertThatThrownBy(() -> parse("--thread", "8")).hasMessageContaining("'thread'");
  }

  @Test
  void duration_outOfRange_isRefusedNamingTheFlag() {
    assertThatThrownBy(() -> parse("--duration", "0s"))
        .hasMessage("duration must be between 1s and 1d, was '0s'");
  }

  @Test
  void toString_neverShowsThePassword() {
    LoadOptions o = parse("--password", "s3cret-pw");

    assertThat(o.toString()).doesNotContain("s3cret-pw");
    assertThat(o.plan(o.gateways(), 1).toString()).doesNotContain("s3cret-pw");
  }

  @Test
  void baseline_withoutVs_isRefusedNamingBoth() {
    assertThatThrownBy(() -> parse("--baseline", "http://127.0.0.1:9280"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--baseline needs --vs");
  }

  @Test
  void baseline_withVs_isAThirdGateway() {
    LoadOptions o = parse("--vs", "http://127.0.0.1:9260", "--baseline", "http://127.0.0.1:9280");

    assertThat(o.baseline()).containsExactly(URI.create("http://127.0.0.1:9280"));
  }
}
