package io.okapigw.authtoken;

import io.okapigw.authtoken.token.SigningKey;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The authtoken module as a verticle: deploy one instance per process, e.g. {@code
 * vertx.deployVerticle(new AuthtokenVerticle(AuthtokenOptions.defaults().withPort(0)))}, then read
 * {@link #actualPort()}. Start opens the store, loads (or creates) the signing key, creates the
 * bootstrap users and listens; a bad setting fails the deployment with a message naming it.
 */
public class AuthtokenVerticle extends VerticleBase {
  /** How often the signing key file is re-read, to follow a rotation by another instance. */
  public static final long KEY_RELOAD_MILLIS = 5_000;

  /** How often expired refresh tokens and revocations are purged. */
  public static final long PURGE_MILLIS = 10 * 60_000;

  /** Largest request head accepted (tokens are limited separately). */
  public static final int MAX_HEADER_SIZE = 32 * 1024;

  /** Longest request line accepted (the filter gets the original path and query). */
  public static final int MAX_INITIAL_LINE_LENGTH = 16 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(AuthtokenVerticle.class);

  private final AuthtokenOptions options;
  private final Clock clock;
  private AuthtokenServices services;
  private HttpServer server;

  /**
   * @param options settings
   */
  public AuthtokenVerticle(AuthtokenOptions options) {
    this(options, Clock.systemUTC());
  }

  /**
   * @param options settings
   * @param clock the time tokens, sessions and login locks are measured by (tests move a fake one
   *     instead of sleeping)
   */
  public AuthtokenVerticle(AuthtokenOptions options, Clock clock) {
    this.options = Objects.requireNonNull(options, "options");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public Future<?> start() {
    return Stores.open(vertx, options.store())
        .compose(
            store ->
                SigningKey.load(vertx, Path.of(options.signingKeyFile()))
                    .map(key -> AuthtokenServices.create(vertx, options, clock, store, key))
                    .onFailure(e -> store.close()))
        .compose(
            s -> {
              services = s;
              return s.start();
            })
        .compose(v -> listen())
        .onSuccess(v -> startTimers())
        .onFailure(
            e -> {
              if (services != null) {
                services.close();
              }
            });
  }

  @Override
  public Future<?> stop() {
    Future<Void> closed = server == null ? Future.succeededFuture() : server.close();
    return closed.eventually(() -> services == null ? Future.succeededFuture() : services.close());
  }

  /**
   * @return the port listened on (useful with port 0), or -1 before start
   */
  public int actualPort() {
    return server == null ? -1 : server.actualPort();
  }

  private Future<Void> listen() {
    HttpServerOptions http =
        new HttpServerOptions()
            .setMaxHeaderSize(MAX_HEADER_SIZE)
            .setMaxInitialLineLength(MAX_INITIAL_LINE_LENGTH);
    return vertx
        .createHttpServer(http)
        .requestHandler(AuthtokenRouter.create(vertx, services))
        .listen(options.port(), options.host())
        .onSuccess(
            s -> {
              server = s;
              LOG.info(
                  "authtoken module listening on {}:{} with {}",
                  options.host(),
                  s.actualPort(),
                  options.toJson());
            })
        .mapEmpty();
  }

  private void startTimers() {
    vertx.setPeriodic(
        KEY_RELOAD_MILLIS,
        id ->
            services
                .signingKey()
                .reload()
                .onSuccess(
                    changed -> {
                      if (changed) {
                        LOG.info("signing key file changed: using the new key");
                      }
                    })
                .onFailure(e -> LOG.warn("cannot re-read --signing-key-file: {}", e.getMessage())));
    vertx.setPeriodic(
        PURGE_MILLIS,
        id ->
            services
                .purge()
                .onFailure(
                    e -> LOG.warn("purging expired refresh tokens failed: {}", e.getMessage())));
  }
}
