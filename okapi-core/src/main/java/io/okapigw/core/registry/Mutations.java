package io.okapigw.core.registry;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Lock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs registry changes one at a time (under a Vert.x shared-data lock, which is cluster-wide when
 * Vert.x is clustered) and, after a change, waits for every change listener, so the answer to an
 * admin call comes only once routing reflects it.
 */
final class Mutations {

  private static final String LOCK = "okapigw.registry.mutation";
  private static final long LOCK_TIMEOUT_MS = 30_000;

  private final Vertx vertx;
  private final List<Function<RegistryChange, Future<Void>>> listeners =
      new CopyOnWriteArrayList<>();

  Mutations(Vertx vertx) {
    this.vertx = vertx;
  }

  void addListener(Function<RegistryChange, Future<Void>> listener) {
    listeners.add(listener);
  }

  /**
   * Runs {@code change} under the lock; if it succeeds, notifies the listeners of what it touched.
   *
   * @param scope what the change touched, from its result
   */
  <T> Future<T> run(Supplier<Future<T>> change, Function<T, ChangeScope> scope) {
    return run(change, scope, result -> Future.succeededFuture(Set.of()));
  }

  /**
   * Runs {@code change} under the lock; if it succeeds, notifies the listeners of what it touched
   * and of the tenants whose cached auth decisions {@code staleGrants} finds no longer hold.
   */
  <T> Future<T> run(
      Supplier<Future<T>> change,
      Function<T, ChangeScope> scope,
      Function<T, Future<Set<String>>> staleGrants) {
    return vertx
        .sharedData()
        .getLockWithTimeout(LOCK, LOCK_TIMEOUT_MS)
        .compose(
            lock ->
                change
                    .get()
                    .compose(
                        result ->
                            staleGrants
                                .apply(result)
                                .compose(
                                    tenants ->
                                        notifyListeners(
                                            new RegistryChange(tenants, scope.apply(result))))
                                .map(result))
                    .andThen(done -> release(lock)));
  }

  /** Tells the listeners the registry changed. */
  Future<Void> notifyListeners(RegistryChange change) {
    return Future.all(listeners.stream().map(l -> l.apply(change)).toList()).mapEmpty();
  }

  private static void release(Lock lock) {
    lock.release();
  }
}
