package io.okapigw.perf.hop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class WrkResultTest {

  private static final String OK =
      """
      Running 10s test @ http://127.0.0.1:9403/hop/230
        2 threads and 64 connections
        Thread Stats   Avg      Stdev     Max   +/- Stdev
          Latency     1.73ms    1.02ms  41.22ms   91.12%
          Req/Sec    18.92k     1.35k   21.44k    72.00%
        Latency Distribution
           50%  812.00us
           75%    1.91ms
           90%    2.50ms
           99%    1.20s
        376543 requests in 10.02s, 151.26MB read
      Requests/sec:  37579.14
      Transfer/sec:     15.10MB
      """;

  @Test
  void parse_totalsRateAndPercentilesInMilliseconds() {
    WrkResult r = WrkResult.parse(OK);
    assertThat(r.requests()).isEqualTo(376543);
    assertThat(r.seconds()).isEqualTo(10.02);
    assertThat(r.requestsPerSecond()).isEqualTo(37579.14);
    assertThat(r.p50Millis()).isEqualTo(0.812);
    assertThat(r.p99Millis()).isEqualTo(1200.0);
    assertThat(r.errors()).isZero();
  }

  @Test
  void parse_countsNon2xxAndSocketErrors() {
    String failing =
        OK.replace(
            "Requests/sec:",
            "  Socket errors: connect 1, read 2, write 3, timeout 4\n"
                + "  Non-2xx or 3xx responses: 10\nRequests/sec:");
    assertThat(WrkResult.parse(failing).errors()).isEqualTo(20);
  }

  @Test
  void parse_withoutLatencyDistribution_failsQuotingTheOutput() {
    String without = OK.replaceAll("(?s)  Latency Distribution.*?99%[^\\n]*\\n", "");
    assertThatThrownBy(() -> WrkResult.parse(without))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--latency")
        .hasMessageContaining("376543 requests");
  }

  @Test
  void millis_everyUnitWrkPrints() {
    assertThat(WrkResult.millis("500.00", "us")).isEqualTo(0.5);
    assertThat(WrkResult.millis("2", "s")).isEqualTo(2000);
    assertThat(WrkResult.millis("1", "m")).isEqualTo(60_000);
  }

  @Test
  void command_headersLatencyAndAtMostTwoThreads() {
    Wrk wrk = new Wrk(Path.of("/usr/bin/wrk"));
    assertThat(wrk.command("http://127.0.0.1:1/hop/1", 64, Duration.ofSeconds(10), List.of("A: b")))
        .containsExactly(
            "/usr/bin/wrk",
            "-t2",
            "-c64",
            "-d10s",
            "--latency",
            "-H",
            "A: b",
            "http://127.0.0.1:1/hop/1");
    assertThat(wrk.command("u", 1, Duration.ofSeconds(3), List.of())).contains("-t1");
  }
}
