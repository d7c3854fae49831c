package io.okapigw.authtoken.perms;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.store.PermissionSetRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Expansion of permission sets. */
class PermissionGraphTest {
  private static PermissionSetRecord set(String module, String name, String... subs) {
    return new PermissionSetRecord(module, name, List.of(subs));
  }

  @Test
  void expand_unknownName_isItself() {
    assertThat(PermissionGraph.EMPTY.expand(List.of("a.b"))).containsExactly("a.b");
    assertThat(PermissionGraph.EMPTY.expand(List.of())).isEmpty();
  }

  @Test
  void expand_nestedSets_recursively() {
    PermissionGraph graph =
        PermissionGraph.of(
            List.of(
                set("m", "all", "read", "write"),
                set("m", "read", "r.1", "r.2"),
                set("m", "write", "w.1", "deep"),
                set("m", "deep", "d.1")));
    assertThat(graph.closure("all"))
        .containsExactlyInAnyOrder("all", "read", "write", "r.1", "r.2", "w.1", "deep", "d.1");
    assertThat(graph.expand(List.of("read", "x")))
        .containsExactlyInAnyOrder("read", "r.1", "r.2", "x");
  }

  @Test
  void expand_cycles_terminateWithEveryMember() {
    PermissionGraph graph =
        PermissionGraph.of(
            List.of(
                set("m", "a", "b", "a.1"),
                set("m", "b", "c"),
                set("m", "c", "a", "c.1"),
                set("m", "self", "self", "s.1")));
    assertThat(graph.closure("b")).containsExactlyInAnyOrder("a", "b", "c", "a.1", "c.1");
    assertThat(graph.closure("a")).containsExactlyInAnyOrder("a", "b", "c", "a.1", "c.1");
    assertThat(graph.closure("self")).containsExactlyInAnyOrder("self", "s.1");
  }

  @Test
  void of_sameNameFromTwoModules_merged() {
    PermissionGraph graph =
        PermissionGraph.of(List.of(set("m1", "shared", "x"), set("m2", "shared", "y")));
    assertThat(graph.closure("shared")).containsExactlyInAnyOrder("shared", "x", "y");
    assertThat(graph.size()).isEqualTo(1);
  }

  @Test
  void closure_memoized_sameInstanceEachTime() {
    PermissionGraph graph = PermissionGraph.of(List.of(set("m", "a", "b")));
    assertThat(graph.closure("a")).isSameAs(graph.closure("a"));
  }

  @Test
  void expand_longChain_noStackOverflow() {
    List<PermissionSetRecord> sets = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      sets.add(set("m", "p" + i, "p" + (i + 1)));
    }
    assertThat(PermissionGraph.of(sets).closure("p0")).hasSize(20_001);
  }
}
