package io.okapigw.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An instance replaced in the mirrored registry (a deployed module started again at its new URL
 * when its node starts, or {@code PUT /_/discovery/modules/{srvcId}/{instId}}) is never missing to
 * readers while the database writes: they see the old instance until the new one is committed.
 * Before, the replacement was a delete and an insert, and between the two a proxied request or
 * {@code GET /_/discovery/modules/{srvcId}} found no instance (404 "no deployment ...": seen by
 * DeploymentRoundTripTest once the registry was held in memory).
 */
class RegistryMirrorReplaceTest {

  private static final DeploymentDescriptor OLD =
      new DeploymentDescriptor("mod-a-1.0.0", "i1", "http://localhost:1", "localhost", null);
  private static final DeploymentDescriptor NEW =
      new DeploymentDescriptor("mod-a-1.0.0", "i1", "http://localhost:2", "localhost", null);

  @Test
  void replacedInstance_readersSeeTheOldUntilTheNewIsCommitted_neverNone() {
    RegistryStore tables = RegistryStore.inMemory();
    tables.insertDeployment(OLD);
    Promise<Void> committed = Promise.promise();
    RegistryStore mirror =
        RegistryMirror.load(slowInserts(tables, committed.future()), "db:5432/okapi").result();

    Future<Boolean> replaced = mirror.replaceDeployment(NEW);
    assertThat(urls(mirror)).as("while the database writes").containsExactly(OLD.url());

    committed.complete();
    assertThat(replaced.result()).isTrue();
    assertThat(urls(mirror)).containsExactly(NEW.url());
    assertThat(urls(tables)).containsExactly(NEW.url());
  }

  @Test
  void noSuchInstance_nothingReplaced() {
    RegistryStore mirror = RegistryMirror.load(RegistryStore.inMemory(), "db").result();
    assertThat(mirror.replaceDeployment(NEW).result()).isFalse();
    assertThat(urls(mirror)).isEmpty();
  }

  private static List<String> urls(RegistryStore store) {
    return store.deployments().result().stream().map(DeploymentDescriptor::url).toList();
  }

  /** {@code tables} whose inserts of instances complete once {@code commit} does. */
  private static RegistryStore slowInserts(RegistryStore tables, Future<Void> commit) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          if (method.isDefault()) {
            return InvocationHandler.invokeDefault(proxy, method, args);
          }
          if (method.getName().equals("insertDeployment")) {
            return commit.compose(v -> tables.insertDeployment((DeploymentDescriptor) args[0]));
          }
          try {
            return method.invoke(tables, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return (RegistryStore)
        Proxy.newProxyInstance(
            RegistryStore.class.getClassLoader(), new Class<?>[] {RegistryStore.class}, handler);
  }
}
