package io.okapigw.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.core.http.FailureLog.Kind;
import io.okapigw.core.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The failure log's rate limit, on a fake clock. */
class FailureLogTest {

  private final AtomicLong nanos = new AtomicLong(1_000);
  private final FailureLog log =
      FailureLog.create(
          LoggerFactory.getLogger("io.okapigw.test.failurelog"),
          3,
          Duration.ofSeconds(10),
          nanos::get);
  private LogCapture capture;

  @BeforeEach
  void capture() {
    capture = new LogCapture();
  }

  @AfterEach
  void release() {
    capture.close();
  }

  private List<String> lines() {
    return capture.lines().stream().filter(l -> l.contains(" failurelog - ")).toList();
  }

  private void advance(Duration d) {
    nanos.addAndGet(d.toNanos());
  }

  @Test
  void log_burstOverLimit_firstLinesOnlyThenCountBeforeNextLineOfNextInterval() {
    for (int i = 0; i < 100; i++) {
      log.log(Kind.UPSTREAM, "503 failure " + i);
    }
    assertThat(lines())
        .containsExactly(
            "WARN failurelog - 503 failure 0",
            "WARN failurelog - 503 failure 1",
            "WARN failurelog - 503 failure 2");

    advance(Duration.ofSeconds(10));
    log.log(Kind.UPSTREAM, "503 later");

    assertThat(lines())
        .hasSize(5)
        .endsWith(
            "WARN failurelog - ... 97 more upstream failures not logged (at most 3 lines per 10 s)",
            "WARN failurelog - 503 later");
  }

  @Test
  void log_withinInterval_limitHoldsUntilIntervalIsOver() {
    for (int i = 0; i < 5; i++) {
      log.log(Kind.CLIENT, "400 bad " + i);
    }
    advance(Duration.ofSeconds(9));
    log.log(Kind.CLIENT, "400 still suppressed");

    assertThat(lines()).hasSize(3).noneMatch(l -> l.contains("suppressed") || l.contains("more"));
  }

  @Test
  void log_kindsCountedApart_eachAtItsLevel() {
    for (int i = 0; i < 5; i++) {
      log.log(Kind.CLIENT, "400 c" + i);
      log.log(Kind.UPSTREAM, "502 u" + i);
      log.log(Kind.BROKEN, "- b" + i);
    }

    assertThat(lines()).hasSize(9);
    assertThat(lines()).filteredOn(l -> l.startsWith("INFO failurelog - 400")).hasSize(3);
    assertThat(lines()).filteredOn(l -> l.startsWith("WARN failurelog - 502")).hasSize(3);
    assertThat(lines()).filteredOn(l -> l.startsWith("INFO failurelog - -")).hasSize(3);
  }

  @Test
  void log_internal_stackTraceOnlyForFirstOfInterval() {
    log.log(Kind.INTERNAL, "500 first", new IllegalStateException("bug one"));
    log.log(Kind.INTERNAL, "500 second", new IllegalStateException("bug two"));

    String text = capture.text();
    assertThat(text)
        .contains(
            "ERROR failurelog - 500 first",
            "java.lang.IllegalStateException: bug one",
            "ERROR failurelog - 500 second");
    assertThat(text).doesNotContain("bug two");
  }

  @Test
  void log_upstreamWithThrowable_neverAStackTrace() {
    log.log(Kind.UPSTREAM, "502 x", new IllegalStateException("no trace"));

    assertThat(capture.text()).contains("WARN failurelog - 502 x").doesNotContain("no trace");
  }

  @Test
  void clean_controlCharactersJwtsAndLength() {
    String jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2ln";
    assertThat(FailureLog.clean("400 x\r\nERROR forged line"))
        .isEqualTo("400 x\\u000d\\u000aERROR forged line");
    assertThat(FailureLog.clean("401 token " + jwt + " refused"))
        .isEqualTo("401 token <token> refused");
    assertThat(FailureLog.clean("Bearer " + jwt.substring(0, jwt.lastIndexOf('.'))))
        .isEqualTo("Bearer <token>");
    assertThat(FailureLog.clean("x".repeat(2_000)))
        .hasSize(FailureLog.MAX_LINE + 3)
        .endsWith("...");
    assertThat(FailureLog.clean(null)).isEmpty();
  }

  @Test
  void create_badSettings_refusedNamingThem() {
    assertThatThrownBy(
            () ->
                FailureLog.create(
                    LoggerFactory.getLogger("x"), 0, Duration.ofSeconds(1), System::nanoTime))
        .hasMessageContaining("lines");
    assertThatThrownBy(
            () ->
                FailureLog.create(LoggerFactory.getLogger("x"), 1, Duration.ZERO, System::nanoTime))
        .hasMessageContaining("interval");
  }
}
