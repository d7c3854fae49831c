package io.okapigw.authtoken.throttle;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.okapigw.authtoken.http.ApiException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Throttles password guessing as FOLIO's mod-login does, and keeps a guessing flood from holding up
 * other users' logins. Before a login's password is checked (a costly hash):
 *
 * <ul>
 *   <li>a user with {@code login.fail.attempts} failed logins within {@code login.fail.timeout} is
 *       locked until the timeout has passed since the last (429, {@code Retry-After}); so is a
 *       client with {@code login.fail.client-attempts}; a success resets the user's count;
 *   <li>one user's logins are checked one after another, each once the one before is over, and the
 *       lock is looked at again then: 40 concurrent guesses for one user cost one hash at a time
 *       and five in all (then it is locked), while other users' logins go on beside them;
 *   <li>at most {@code login.hash-queue} logins wait for their check, and at most as many in one
 *       user's line; more are answered 429 with {@code Retry-After}: how long checks take lately
 *       (their wait for a hashing thread included), about the time the queue needs to move on.
 * </ul>
 *
 * Locks are by user name (any case) whether the user exists or not, so a 429 tells nothing of which
 * users exist. State lives in this instance's memory (bounded: 100,000 users and clients, each
 * forgotten a timeout after its last attempt); instances sharing a store each throttle on their
 * own. Time comes from the injected clock. Thread-safe.
 */
public final class LoginThrottle {

  private static final int MAX_KEYS = 100_000;
  private static final String REQUEST_IP = "X-Okapi-request-ip";

  private final LoginThrottleOptions options;
  private final Clock clock;
  private final Cache<String, Attempts> users;
  private final Cache<String, Attempts> clients;
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicLong meanCheckMillis = new AtomicLong();

  /**
   * @param options the {@code login.*} settings
   * @param clock the time locks are measured by
   */
  public LoginThrottle(LoginThrottleOptions options, Clock clock) {
    this.options = options;
    this.clock = clock;
    this.users = cache(options);
    this.clients = cache(options);
  }

  private static Cache<String, Attempts> cache(LoginThrottleOptions options) {
    return Caffeine.newBuilder()
        .maximumSize(MAX_KEYS)
        .expireAfterAccess(options.failTimeout())
        .build();
  }

  /**
   * @return the client a login comes from: {@code X-Okapi-request-ip} (what the gateway saw), else
   *     the peer's address
   */
  public static String clientOf(HttpServerRequest request) {
    String ip = request.getHeader(REQUEST_IP);
    if (ip != null && !ip.isBlank()) {
      return ip.trim();
    }
    SocketAddress peer = request.remoteAddress();
    return peer == null ? null : peer.host();
  }

  /**
   * Runs {@code login} if it may run now, and counts its outcome.
   *
   * @param client the client it comes from, or {@code null} if unknown
   * @param wrongCredentials which failures of {@code login} are failed logins
   * @return {@code login}'s result; fails with a 429 {@link ApiException} if throttled
   */
  public <T> Future<T> attempt(
      String tenant,
      String username,
      String client,
      Supplier<Future<T>> login,
      Predicate<Throwable> wrongCredentials) {
    Attempts user =
        users.get(tenant + '\n' + username.toLowerCase(Locale.ROOT), k -> new Attempts());
    Attempts from = client == null ? null : clients.get(client, k -> new Attempts());
    Promise<Void> done = Promise.promise();
    Future<Void> turn = user.line(done, options.hashQueue());
    if (turn == null) {
      return Future.failedFuture(
          busy("too many logins of " + username + " waiting", user.queued() * meanCheckMillis()));
    }
    Login<T> attempt = new Login<>(username, login, wrongCredentials);
    return turn.transform(v -> check(attempt, user, from)).andThen(v -> done.complete());
  }

  /** A login to check: whose, the check itself, and which of its failures are failed logins. */
  private record Login<T>(
      String username, Supplier<Future<T>> check, Predicate<Throwable> wrongCredentials) {}

  /**
   * The login's turn has come (at once when no other login of the user is in line): locked, or too
   * many waiting, or checked now.
   */
  private <T> Future<T> check(Login<T> attempt, Attempts user, Attempts from) {
    ApiException locked = locked(attempt.username(), user, from);
    if (locked != null) {
      return Future.failedFuture(locked);
    }
    if (waiting.incrementAndGet() > options.hashQueue()) {
      waiting.decrementAndGet();
      return Future.failedFuture(
          busy("too many logins waiting for their password check", meanCheckMillis()));
    }
    long start = clock.millis();
    return attempt
        .check()
        .get()
        .andThen(
            result -> {
              long end = clock.millis();
              waiting.decrementAndGet();
              meanCheckMillis.getAndUpdate(mean -> (mean * 7 + (end - start)) / 8);
              if (result.succeeded()) {
                user.succeeded();
              } else if (attempt.wrongCredentials().test(result.cause())) {
                user.failed(end);
                if (from != null) {
                  from.failed(end);
                }
              }
            });
  }

  /**
   * @return the refusal of a locked user or client, or null
   */
  private ApiException locked(String username, Attempts user, Attempts from) {
    long now = clock.millis();
    long timeout = options.failTimeout().toMillis();
    long locked = user.lockedFor(now, options.failAttempts(), timeout);
    if (locked > 0) {
      return ApiException.tooManyRequests(
          "too many failed logins of " + username + ": try again in " + seconds(locked) + " s",
          seconds(locked));
    }
    locked = from == null ? 0 : from.lockedFor(now, options.clientFailAttempts(), timeout);
    if (locked > 0) {
      return ApiException.tooManyRequests(
          "too many failed logins from this client: try again in " + seconds(locked) + " s",
          seconds(locked));
    }
    return null;
  }

  /** A 429 for a full line: try again once those in it may be through. */
  private static ApiException busy(String what, long millis) {
    long wait = seconds(millis);
    return ApiException.tooManyRequests(what + ": try again in " + wait + " s", wait);
  }

  /**
   * A check's time lately, from its turn to its end: its wait for a hashing thread and its hash, so
   * about how long the logins waiting now take to get through.
   */
  private long meanCheckMillis() {
    return meanCheckMillis.get();
  }

  private static long seconds(long millis) {
    return Math.max(1, (millis + 999) / 1000);
  }
}
