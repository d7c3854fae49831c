package io.okapigw.perf.kit.launch;

import io.okapigw.core.config.AuthParallel;
import io.okapigw.perf.kit.modules.FakeBodyModule;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Starts the parts of a benchmark on 127.0.0.1 and hands back their base URLs: each in a JVM of its
 * own ({@link #processes}, what the benchmarks use: the gateway's heap is then its own, can be
 * capped and observed) or all in this JVM ({@link #inProcess}, for tests). {@link #close()} stops
 * everything started.
 */
public interface Launcher {

  /**
   * @param jars where the gateway and auth module fat jars are
   * @param workDir where logs and the auth module's store go
   * @param gatewayHeap the gateway's {@code -Xmx}, e.g. {@code 256m}
   */
  static Launcher processes(Vertx vertx, Jars jars, Path workDir, String gatewayHeap) {
    return new ProcessLauncher(vertx, jars, workDir, gatewayHeap);
  }

  /**
   * @param workDir where the auth module's store goes
   */
  static Launcher inProcess(Vertx vertx, Path workDir) {
    return new InProcessLauncher(vertx, workDir);
  }

  /**
   * The fat jars of the separately run programs.
   *
   * @param gateway {@code okapi-core-fat.jar}
   * @param authtoken {@code authtoken-module-fat.jar}
   */
  record Jars(Path gateway, Path authtoken) {}

  /**
   * @return the URL of a new single-node gateway ({@code dev}) in the given auth.parallel mode
   */
  default Future<String> gateway(AuthParallel mode) {
    return gateway(mode, Map.of());
  }

  /**
   * @param settings more of the gateway's settings ({@code bulkhead.max-in-flight}: {@code 16})
   * @return the URL of a new single-node gateway ({@code dev}) in the given auth.parallel mode
   */
  Future<String> gateway(AuthParallel mode, Map<String, String> settings);

  /**
   * @param user the user to create at start
   * @return the URL of a new authtoken module (JSON store, tokens valid for an hour, cheap password
   *     hashing so that many logins are quick)
   */
  Future<String> authtoken(BenchUser user);

  /**
   * @return the URL of a new {@link FakeBodyModule}
   */
  Future<String> fakeModule();

  /**
   * @return the URL of a new {@link io.okapigw.perf.kit.modules.FixedModule} answering after {@code
   *     delay}
   */
  Future<String> fixedModule(int size, Duration delay);

  /** Stops everything this launcher started; never fails. */
  Future<Void> close();
}
