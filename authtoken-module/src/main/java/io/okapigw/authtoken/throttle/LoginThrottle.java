package io.okapigw.authtoken.throttle;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.okapigw.authtoken.http.ApiException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Throttles password guessing without letting a guesser lock out the users it shares an address
 * with, and keeps a guessing flood from holding up other users' logins. Before a login's password
 * is checked (a costly hash):
 *
 * <ul>
 *   <li>a user name with {@code login.fail.attempts} failed logins from one client within {@code
 *       login.fail.timeout} is locked for that client until the timeout has passed since the last
 *       (429, {@code Retry-After}); a success there resets the count (FOLIO's mod-login counts by
 *       user alone: one guesser locked the user everywhere);
 *   <li>a user name with {@code login.fail.user-attempts} failed logins from any clients is locked
 *       as well (a guesser with many addresses), and a client with {@code
 *       login.fail.client-attempts} failed logins for user names that do not exist (a guesser
 *       trying names): both for every client and user name except the pairs that logged in
 *       successfully within {@code login.known-client-ttl}, so the users behind a NAT who log in
 *       from it go on doing so while a guesser there is locked out. Unknown user names are locked
 *       exactly as known ones that never logged in from the client, so a 429 never tells whether a
 *       user name exists;
 *   <li>one user's logins are checked one after another, each once the one before is over, and the
 *       locks are looked at again then: 40 concurrent guesses for one user cost one hash at a time;
 *   <li>at most {@code login.hash-queue} logins wait for their check, and at most as many in one
 *       user's line; more are answered 429 with {@code Retry-After}: how long checks take lately
 *       (their wait for a hashing thread included), about the time the queue needs to move on.
 * </ul>
 *
 * Locks are by user name in any case. State lives in this instance's memory (bounded: 100,000 keys
 * of each kind, each forgotten a timeout after its last attempt, a known pair after {@code
 * login.known-client-ttl}); instances sharing a store each throttle on their own. Time comes from
 * the injected clock. Thread-safe.
 */
public final class LoginThrottle {

  private static final int MAX_KEYS = 100_000;

  /** What a login's failure was. */
  public enum Failure {
    /** Not a failed login (a success, an inactive user, the store down): not counted. */
    NONE,
    /** A wrong password for a user name that exists. */
    WRONG_PASSWORD,
    /** A user name that does not exist. */
    UNKNOWN_USER
  }

  private final LoginThrottleOptions options;
  private final Clock clock;
  private final Cache<String, Attempts> lines;
  private final Cache<String, Attempts> pairs;
  private final Cache<String, Attempts> clients;
  private final Cache<String, Boolean> known;
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicLong meanCheckMillis = new AtomicLong();

  /**
   * @param options the {@code login.*} settings
   * @param clock the time locks are measured by
   */
  public LoginThrottle(LoginThrottleOptions options, Clock clock) {
    this.options = options;
    this.clock = clock;
    this.lines = cache(clock).expireAfterAccess(options.failTimeout()).build();
    this.pairs = cache(clock).expireAfterAccess(options.failTimeout()).build();
    this.clients = cache(clock).expireAfterAccess(options.failTimeout()).build();
    this.known = cache(clock).expireAfterWrite(options.knownClientTtl()).build();
  }

  private static Caffeine<Object, Object> cache(Clock clock) {
    return Caffeine.newBuilder().maximumSize(MAX_KEYS).ticker(() -> clock.millis() * 1_000_000);
  }

  /**
   * Runs {@code login} if it may run now, and counts its outcome.
   *
   * @param client the client it comes from ({@link ClientAddresses}), or {@code null} if unknown
   * @param failure what each failure of {@code login} was
   * @return {@code login}'s result; fails with a 429 {@link ApiException} if throttled
   */
  public <T> Future<T> attempt(
      String tenant,
      String username,
      String client,
      Supplier<Future<T>> login,
      Function<Throwable, Failure> failure) {
    String user = tenant + '\n' + username.toLowerCase(Locale.ROOT);
    Attempts line = lines.get(user, k -> new Attempts());
    Promise<Void> done = Promise.promise();
    Future<Void> turn = line.line(done, options.hashQueue());
    if (turn == null) {
      return Future.failedFuture(
          busy("too many logins of " + username + " waiting", line.queued() * meanCheckMillis()));
    }
    Login<T> attempt = new Login<>(username, user, client, login, failure);
    return turn.transform(v -> check(attempt, line)).andThen(v -> done.complete());
  }

  /** A login to check: whose, from where, the check itself, and what its failures are. */
  private record Login<T>(
      String username,
      String user,
      String client,
      Supplier<Future<T>> check,
      Function<Throwable, Failure> failure) {

    /** The user name from this client; without a client, the user name alone. */
    String pair() {
      return client == null ? user : user + '\n' + client;
    }
  }

  /**
   * The login's turn has come (at once when no other login of the user is in line): locked, or too
   * many waiting, or checked now.
   */
  private <T> Future<T> check(Login<T> attempt, Attempts user) {
    Attempts pair = pairs.get(attempt.pair(), k -> new Attempts());
    Attempts from =
        attempt.client() == null ? null : clients.get(attempt.client(), k -> new Attempts());
    ApiException locked = locked(attempt, pair, user, from);
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
              count(attempt, result.succeeded() ? null : result.cause(), end, pair, user, from);
            });
  }

  private void count(
      Login<?> attempt, Throwable cause, long now, Attempts pair, Attempts user, Attempts from) {
    if (cause == null) {
      pair.succeeded();
      if (attempt.client() != null && !options.knownClientTtl().isZero()) {
        known.put(attempt.pair(), Boolean.TRUE);
      }
      return;
    }
    Failure failure = attempt.failure().apply(cause);
    if (failure == Failure.NONE) {
      return;
    }
    pair.failed(now);
    user.failed(now);
    if (failure == Failure.UNKNOWN_USER && from != null) {
      from.failed(now);
    }
  }

  /**
   * @return the refusal of a locked pair, user name or client, or null
   */
  private ApiException locked(Login<?> attempt, Attempts pair, Attempts user, Attempts from) {
    long now = clock.millis();
    long timeout = options.failTimeout().toMillis();
    long locked = pair.lockedFor(now, options.failAttempts(), timeout);
    if (locked == 0 && known.getIfPresent(attempt.pair()) == null) {
      locked = user.lockedFor(now, options.userFailAttempts(), timeout);
    }
    if (locked > 0) {
      return ApiException.tooManyRequests(
          "too many failed logins of "
              + attempt.username()
              + ": try again in "
              + seconds(locked)
              + " s",
          seconds(locked));
    }
    if (from != null && known.getIfPresent(attempt.pair()) == null) {
      locked = from.lockedFor(now, options.clientFailAttempts(), timeout);
    }
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
