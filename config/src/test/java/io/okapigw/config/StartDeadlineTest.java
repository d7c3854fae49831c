package io.okapigw.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StartDeadlineTest {

  private final List<String> logged = new CopyOnWriteArrayList<>();
  private final List<Integer> exits = new CopyOnWriteArrayList<>();
  private final CountDownLatch exited = new CountDownLatch(1);

  private void exit(int status) {
    exits.add(status);
    exited.countDown();
  }

  @Test
  void noStartBeforeTheDeadline_logsWhyAndExitsWithStatus1() throws InterruptedException {
    StartDeadline.arm("gateway", Duration.ofMillis(20), logged::add, this::exit);

    assertThat(exited.await(30, TimeUnit.SECONDS)).as("exited").isTrue();
    assertThat(exits).containsExactly(StartDeadline.FAILED);
    assertThat(logged).singleElement().asString().contains("gateway did not start within");
  }

  @Test
  void failure_logsTheReasonAndExitsOnce() throws InterruptedException {
    StartDeadline deadline =
        StartDeadline.arm("authtoken module", Duration.ofDays(1), logged::add, this::exit);

    deadline.failed("connection refused");
    deadline.failed("again");

    assertThat(exited.await(30, TimeUnit.SECONDS)).as("exited").isTrue();
    assertThat(logged).containsExactly("authtoken module failed to start: connection refused");
    assertThat(exits).containsExactly(StartDeadline.FAILED);
  }

  @Test
  void failureAfterTheStart_isIgnored() {
    StartDeadline deadline =
        StartDeadline.arm("modules", Duration.ofDays(1), logged::add, this::exit);

    deadline.started();
    deadline.failed("too late");

    assertThat(exits).isEmpty();
    assertThat(logged).isEmpty();
  }

  @Test
  void setting_readsADurationWithTheSharedRules() {
    Settings settings = StartDeadline.SETTINGS.read(List.of("--start-timeout", "3s"));
    assertThat(settings.get(StartDeadline.START_TIMEOUT)).isEqualTo(Duration.ofSeconds(3));
    assertThat(StartDeadline.SETTINGS.read(List.of()).get(StartDeadline.START_TIMEOUT))
        .isEqualTo(StartDeadline.DEFAULT);
  }
}
