package io.okapigw.core.auth;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A breaker per auth module, on this node: closed, it lets every call through and counts the ones
 * the module did not answer (the call's future failed: no connection, reset, {@code auth.timeout});
 * after {@code auth.breaker.failures} of them in a row it opens. Open, it fails calls at once,
 * without asking the module, with 503 and {@code Retry-After} (the seconds to the next probe), so
 * that the cache serves an expired decision stale without waiting (stale-if-error) and other
 * requests get their 503 at once; one call per {@code auth.breaker.probe-interval} is let through
 * as a probe. The calls are the auth-filter calls and the handler calls to the auth module ({@link
 * AuthModuleCalls}: {@code /authn/login}, ...), one count for both. Any answer (a refusal too)
 * closes it; a failed probe keeps it open for another interval. Time comes from {@code nanoTime},
 * so tests move a fake clock.
 *
 * <p>Metrics: {@code okapi_auth_breakers_open} (auth modules whose breaker is open) and {@code
 * okapi_auth_calls_skipped_total{tenant}} (auth calls not made because of it).
 */
public final class AuthBreakers {

  private static final Logger log = LoggerFactory.getLogger(AuthBreakers.class);

  private final int threshold;
  private final long intervalNanos;
  private final LongSupplier nanoTime;
  private final MeterRegistry registry;
  private final ConcurrentMap<String, Breaker> breakers = new ConcurrentHashMap<>();

  /**
   * @param options {@code auth.breaker.*}
   * @param nanoTime the node's monotonic time
   * @param registry where the metrics go
   */
  public AuthBreakers(AuthOptions options, LongSupplier nanoTime, MeterRegistry registry) {
    this.threshold = options.breakerFailures();
    this.intervalNanos = options.probeInterval().toNanos();
    this.nanoTime = nanoTime;
    this.registry = registry;
    Gauge.builder("okapi.auth.breakers.open", breakers, b -> openCount())
        .description("Auth modules this node does not ask while their breaker is open")
        .register(registry);
  }

  /**
   * Makes the auth call unless the module's breaker is open.
   *
   * @param tenant for the metric of calls skipped
   * @param moduleId the auth module
   * @param call makes the call
   * @return the call's outcome; failed with a 503 at once while the breaker is open
   */
  public <T> Future<T> call(String tenant, String moduleId, Supplier<Future<T>> call) {
    return call(tenant, moduleId, call, e -> true);
  }

  /**
   * As {@link #call(String, String, Supplier)}, a failure counted only if the module is to blame.
   *
   * @param moduleFailed whether a failure of the call is the module's (not the client's: it left)
   */
  public <T> Future<T> call(
      String tenant, String moduleId, Supplier<Future<T>> call, Predicate<Throwable> moduleFailed) {
    if (threshold == 0) {
      return call.get();
    }
    Breaker breaker = breakers.computeIfAbsent(moduleId, Breaker::new);
    Pass pass = breaker.admit(nanoTime.getAsLong());
    if (pass == Pass.REFUSED) {
      Counter.builder("okapi.auth.calls.skipped")
          .description(
              "Calls to auth modules (auth filter, handler) not made because the auth module's"
                  + " breaker was open")
          .tag("tenant", tenant)
          .register(registry)
          .increment();
      return Future.failedFuture(breaker.refusal(nanoTime.getAsLong()));
    }
    return call.get()
        .andThen(
            result -> {
              if (result.succeeded() || moduleFailed.test(result.cause())) {
                breaker.record(pass, result.succeeded());
              } else {
                breaker.release(pass);
              }
            });
  }

  /**
   * @return whether the module's breaker is open
   */
  public boolean isOpen(String moduleId) {
    Breaker breaker = breakers.get(moduleId);
    return breaker != null && breaker.isOpen();
  }

  private long openCount() {
    return breakers.values().stream().filter(Breaker::isOpen).count();
  }

  /**
   * The 503 of a call not made because the breaker is open: not a call the module failed. Its
   * {@code Retry-After} is the time to the next probe, at least a second.
   */
  static final class Open extends HttpError {
    private static final long serialVersionUID = 1L;

    Open(String message, long retryAfterSeconds) {
      super(503, message, Math.max(1, retryAfterSeconds));
    }
  }

  /** What a call may do. */
  private enum Pass {
    /** The breaker is closed. */
    CALL,
    /** The breaker is open, and this call tries the module again. */
    PROBE,
    /** The breaker is open: fail at once. */
    REFUSED
  }

  /** One auth module's breaker; its methods are called from every event loop. */
  private final class Breaker {
    private final String moduleId;
    private int failures;
    private boolean open;
    private boolean probing;
    private long nextProbe;

    Breaker(String moduleId) {
      this.moduleId = moduleId;
    }

    synchronized boolean isOpen() {
      return open;
    }

    synchronized Pass admit(long now) {
      if (!open) {
        return Pass.CALL;
      }
      if (probing || now - nextProbe < 0) {
        return Pass.REFUSED;
      }
      probing = true;
      return Pass.PROBE;
    }

    synchronized Open refusal(long now) {
      long wait = probing ? 0 : Math.max(0, nextProbe - now);
      return new Open(
          "auth module "
              + moduleId
              + " unavailable, request refused: it did not answer "
              + threshold
              + " auth calls in a row; "
              + (probing ? "a call is trying it now" : "next try in " + wait / 1_000_000 + " ms"),
          (wait + 999_999_999L) / 1_000_000_000L);
    }

    /** A call whose failure is not the module's ended: a probe lets the next one try. */
    synchronized void release(Pass pass) {
      if (pass == Pass.PROBE) {
        probing = false;
      }
    }

    synchronized void record(Pass pass, boolean answered) {
      long now = nanoTime.getAsLong();
      if (pass == Pass.PROBE) {
        probing = false;
      }
      if (answered) {
        if (open) {
          log.info("auth module {} answers again: its breaker is closed", moduleId);
        }
        open = false;
        failures = 0;
        return;
      }
      failures++;
      if (open) {
        if (pass == Pass.PROBE) {
          nextProbe = now + intervalNanos;
        }
      } else if (failures >= threshold) {
        open = true;
        nextProbe = now + intervalNanos;
        log.warn(
            "auth module {} did not answer {} auth calls in a row: its breaker is open (expired"
                + " decisions served stale where auth.cache.stale-if-error allows, other requests"
                + " 503 at once); one call every {} tries it again",
            moduleId,
            failures,
            Duration.ofNanos(intervalNanos));
      }
    }
  }
}
