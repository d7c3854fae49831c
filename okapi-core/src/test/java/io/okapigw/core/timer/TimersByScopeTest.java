package io.okapigw.core.timer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.registry.ChangeScope;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.testsupport.Descriptors;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A registry change re-reads the timers of the tenants it touched (issue 45): every change re-read
 * every tenant's enabled modules and descriptors, here and on every member, so an install's time
 * grew with the number of tenants. Reads of the store are counted, not timed.
 */
class TimersByScopeTest {

  private static final int TENANTS = 20;
  private static final String TIMER = "mod-timer-1.0.0";

  private final Vertx vertx = Vertx.vertx();
  private final RegistryStore memory = RegistryStore.inMemory();
  private final List<String> enabledReads = Collections.synchronizedList(new ArrayList<>());
  private final RegistryStore store = counting(memory);
  private NodeTimers timers;

  /** The store, recording whose enabled modules are read. */
  private RegistryStore counting(RegistryStore target) {
    return (RegistryStore)
        Proxy.newProxyInstance(
            RegistryStore.class.getClassLoader(),
            new Class<?>[] {RegistryStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("enabledModules")) {
                enabledReads.add((String) args[0]);
              }
              try {
                return method.invoke(target, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @BeforeEach
  void setUp() {
    memory
        .insertModule(
            ModuleDescriptor.fromJson(
                Descriptors.systemModule(
                    TIMER,
                    "_timer",
                    new JsonObject()
                        .put("methods", new JsonArray().add("POST"))
                        .put("pathPattern", "/notices")
                        .put("unit", "minute")
                        .put("delay", "5"))))
        .await();
    for (int i = 0; i < TENANTS; i++) {
      String id = "t" + i;
      memory.insertTenant(TenantDescriptor.fromJson(new JsonObject().put("id", id), id)).await();
      memory.setEnabledModules(id, List.of(TIMER)).await();
    }
    timers =
        (NodeTimers)
            NodeTimers.create(
                    vertx,
                    store,
                    SharedDataTimerStore.create(vertx).await(),
                    ClusterBus.create(vertx, Duration.ofSeconds(2)),
                    new FakeScheduler(Instant.parse("2026-03-02T05:00:00Z")),
                    new TimerCalls(null, new SimpleMeterRegistry()))
                .await();
    timers.start().await();
    enabledReads.clear();
  }

  @AfterEach
  void tearDown() {
    vertx.close().await();
  }

  @Test
  void aTenantsEnable_readsThatTenantsModulesOnly() {
    memory
        .insertTenant(TenantDescriptor.fromJson(new JsonObject().put("id", "new"), "new"))
        .await();
    memory.setEnabledModules("new", List.of(TIMER)).await();

    timers.changed(ChangeScope.tenants("new")).await();

    // every tenant's were re-read, and their timers made from their descriptors
    assertThat(enabledReads).containsExactly("new");
    assertThat(timers.list("new").await()).hasSize(1);
    assertThat(timers.list("t3").await()).hasSize(1);
  }

  @Test
  void aTenantsDisable_dropsItsTimersOnly() {
    memory.setEnabledModules("t2", List.of()).await();

    timers.changed(ChangeScope.tenants("t2")).await();

    assertThat(enabledReads).containsExactly("t2");
    assertThat(timers.list("t2").await()).isEmpty();
    assertThat(timers.list("t5").await()).hasSize(1);
  }
}
