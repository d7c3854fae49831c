package io.okapigw.config;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * How long a program of ours may take to start: armed before anything starts, {@link #started()}
 * once it listens. Past the deadline, or on {@link #failed(String)}, the program logs why and exits
 * with status {@link #FAILED}, so that a supervisor (a container's restart policy) starts it again
 * instead of leaving a process that neither listens nor exits (a start future that never completes:
 * a PostgreSQL pool wait that failed inside the driver, a member that never answers).
 *
 * <pre>{@code
 * StartDeadline deadline = StartDeadline.arm("authtoken module", settings.get(START_TIMEOUT), log::error);
 * start().onSuccess(v -> deadline.started()).onFailure(e -> deadline.failed(e.getMessage()));
 * }</pre>
 */
public final class StartDeadline {

  /** Exit status of a start that failed or took too long. */
  public static final int FAILED = 1;

  /** The default deadline: far beyond a start on a busy machine (tens of seconds). */
  public static final Duration DEFAULT = Duration.ofSeconds(120);

  /** The setting every long-running program of ours reads its deadline from. */
  public static final Setting<Duration> START_TIMEOUT =
      Setting.duration("start-timeout", DEFAULT, Duration.ofMillis(1), Duration.ofDays(1))
          .about(
              "how long the start may take (stores connected, cluster joined, port listening);"
                  + " past it, or on a failure, the process logs why and exits with status 1");

  /** {@link #START_TIMEOUT} alone, to add to a program's settings. */
  public static final SettingsSpec SETTINGS = SettingsSpec.of(START_TIMEOUT);

  private static final ScheduledExecutorService TIMER =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "start-deadline");
            t.setDaemon(true);
            return t;
          });

  private final String what;
  private final Duration limit;
  private final Consumer<String> log;
  private final IntConsumer exit;
  private final AtomicBoolean settled = new AtomicBoolean();
  private volatile ScheduledFuture<?> timer;

  private StartDeadline(String what, Duration limit, Consumer<String> log, IntConsumer exit) {
    this.what = what;
    this.limit = limit;
    this.log = log;
    this.exit = exit;
  }

  /**
   * Arms the deadline; the process exits ({@link System#exit}) when it passes.
   *
   * @param what the program, for the message ("gateway")
   * @param limit how long the start may take
   * @param log where the one line saying why goes (an error logger)
   * @return the armed deadline
   */
  public static StartDeadline arm(String what, Duration limit, Consumer<String> log) {
    return arm(what, limit, log, System::exit);
  }

  /**
   * As {@link #arm(String, Duration, Consumer)}, ending the process through {@code exit}.
   *
   * @param exit called once with {@link #FAILED}
   * @return the armed deadline
   */
  public static StartDeadline arm(
      String what, Duration limit, Consumer<String> log, IntConsumer exit) {
    StartDeadline deadline = new StartDeadline(what, limit, log, exit);
    deadline.timer = TIMER.schedule(deadline::expire, limit.toNanos(), TimeUnit.NANOSECONDS);
    return deadline;
  }

  /** The start is done: the deadline no longer applies. */
  public void started() {
    if (settled.compareAndSet(false, true)) {
      timer.cancel(false);
    }
  }

  /**
   * The start failed: logs why and exits with {@link #FAILED}, unless already settled.
   *
   * @param why the reason, one line
   */
  public void failed(String why) {
    if (settled.compareAndSet(false, true)) {
      timer.cancel(false);
      end(what + " failed to start: " + why);
    }
  }

  private void expire() {
    if (settled.compareAndSet(false, true)) {
      end(
          what
              + " did not start within "
              + Values.format(limit)
              + " (start-timeout): exiting with status "
              + FAILED
              + " so that it can be started again");
    }
  }

  private void end(String message) {
    log.accept(message);
    // exit on a thread of its own: System.exit waits for shutdown hooks, which may wait for the
    // very thread (an event loop, this timer) that called it
    Thread t = new Thread(() -> exit.accept(FAILED), "start-deadline-exit");
    t.setDaemon(false);
    t.start();
  }
}
