package io.okapigw.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.cluster.RegistrySync;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.VersionFilter;
import io.okapigw.testsupport.Descriptors;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A cluster member told of a change recompiles what the change touched, as the node that made it
 * (issue 45): each member rebuilt every tenant's table for every change anywhere in the cluster.
 * Two nodes share one store (as they share the cluster's maps) and a bus that delivers each
 * broadcast to the other node's handlers.
 */
class RoutingTablesOnMembersTest {

  private static final String A = "mod-a-1.0.0";
  private static final String B = "mod-b-1.0.0";

  private final Vertx vertx = Vertx.vertx();
  private final RegistryStore store = RegistryStore.inMemory();
  private final Registry registry = new Registry(vertx, store);
  private final RoutingTables here = new RoutingTables(vertx, store, () -> false, null);
  private final RoutingTables member = new RoutingTables(vertx, store, () -> false, null);
  private final FakeBus toMember = new FakeBus("node-2");
  private final List<String> compiledOnMember = Collections.synchronizedList(new ArrayList<>());
  private boolean memberAnswers = true;

  @BeforeEach
  void setUp() {
    RegistrySync sync = RegistrySync.start(here, toMember).await();
    RegistrySync.start(member, toMember.served()).await();
    registry.onChange(change -> sync.changed(change.scope()));
    registry
        .addModules(List.of(module(A, "a", "/a"), module(B, "b", "/b")), true, VersionFilter.ALL)
        .await();
    for (int i = 0; i < 10; i++) {
      registry.addTenant(new JsonObject().put("id", "t" + i)).await();
      registry.tenantModules().commit("t" + i, null, A).await();
    }
    member.onCompile(compiledOnMember::add);
  }

  @AfterEach
  void tearDown() {
    vertx.close().await();
  }

  private static ModuleDescriptor module(String id, String itf, String path) {
    return ModuleDescriptor.fromJson(
        Descriptors.module(id, itf, Descriptors.handler("GET", path, itf + ".get")));
  }

  @Test
  void enableOnOneNode_memberCompilesThatTenantOnly_andRoutesIt() {
    registry.tenantModules().commit("t4", null, B).await();

    assertThat(compiledOnMember).containsExactly("t4");
    assertThat(member.forTenant("t4").orElseThrow().match("GET", "/b", null)).isPresent();
    assertThat(member.forTenant("t5").orElseThrow().match("GET", "/b", null)).isEmpty();
  }

  @Test
  void instancesMoved_memberCompilesTheTenantsUsingTheModuleOnly() {
    registry.tenantModules().commit("t1", null, B).await();
    compiledOnMember.clear();

    registry
        .discovery()
        .add(new JsonObject().put("srvcId", B).put("instId", "b-1").put("url", "http://b:9131"))
        .await();

    assertThat(compiledOnMember).containsExactly("t1");
  }

  @Test
  void memberMissedAChange_theNextIsSentAsEverything() {
    memberAnswers = false;
    registry.tenantModules().commit("t2", null, B).await();
    memberAnswers = true;
    compiledOnMember.clear();

    registry.tenantModules().commit("t3", null, B).await();

    assertThat(compiledOnMember).as("every table, after a change it may have missed").hasSize(10);
    assertThat(member.forTenant("t2").orElseThrow().match("GET", "/b", null)).isPresent();
  }

  /** The bus of node 1, which delivers its broadcasts to node 2's handlers. */
  private final class FakeBus implements ClusterBus {

    private final String memberId;
    private final Map<String, Function<JsonObject, Future<Void>>> memberHandlers = new HashMap<>();

    FakeBus(String memberId) {
      this.memberId = memberId;
    }

    @Override
    public String nodeId() {
      return "node-1";
    }

    @Override
    public List<String> members() {
      return List.of(nodeId(), memberId);
    }

    @Override
    public Future<Void> serve(String topic, Function<JsonObject, Future<Void>> handler) {
      return Future.succeededFuture();
    }

    @Override
    public Future<List<String>> broadcast(String topic, JsonObject body) {
      if (!memberAnswers) {
        return Future.succeededFuture(List.of(memberId));
      }
      return memberHandlers.get(topic).apply(body).map(v -> List.of());
    }

    /** Node 2's bus: what it serves is what node 1's broadcasts reach. */
    ClusterBus served() {
      FakeBus outer = this;
      return new ClusterBus() {
        @Override
        public String nodeId() {
          return memberId;
        }

        @Override
        public List<String> members() {
          return outer.members();
        }

        @Override
        public Future<Void> serve(String topic, Function<JsonObject, Future<Void>> handler) {
          memberHandlers.put(topic, handler);
          return Future.succeededFuture();
        }

        @Override
        public Future<List<String>> broadcast(String topic, JsonObject body) {
          return Future.succeededFuture(List.of());
        }
      };
    }
  }
}
