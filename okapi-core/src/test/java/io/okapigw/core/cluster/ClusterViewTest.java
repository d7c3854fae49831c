package io.okapigw.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node's view of its cluster on three Hazelcast members in this JVM: a member that leaves by
 * closing its Vert.x says so and no longer counts towards the quorum; members that vanish (their
 * Hazelcast terminated, as kill -9 or a split does) still count, so the one left alone is cut off
 * and not ready; every change is re-read, and a lost quorum drops the auth decisions.
 */
class ClusterViewTest {

  private static final Duration ACK = Duration.ofSeconds(5);

  private final List<Vertx> vertxes = new ArrayList<>();
  private final List<ClusterView> views = new ArrayList<>();
  private final List<ClusterView.Change> rereadByLast = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    vertxes.forEach(v -> v.close().otherwise((Void) null).await());
  }

  private void start(int size, int quorum) {
    List<Integer> ports =
        IntStream.range(0, size).mapToObj(i -> FreePorts.belowEphemeralRange()).toList();
    List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
    for (int i = 0; i < size; i++) {
      Vertx vertx =
          ClusteredVertx.start(new ClusterOptions("127.0.0.1", ports.get(i), members, null, quorum))
              .await();
      vertxes.add(vertx);
      ClusterView view = ClusterView.create(vertx, ClusterBus.create(vertx, ACK));
      boolean last = i == size - 1;
      view.start(
              change -> {
                if (last) {
                  rereadByLast.add(change);
                }
                return Future.succeededFuture();
              })
          .await();
      views.add(view);
    }
    if (quorum == 0) {
      Await.until(() -> views.stream().allMatch(v -> v.notReady().isEmpty()), "every node ready");
    }
  }

  private ClusterView last() {
    return views.get(views.size() - 1);
  }

  private void terminate(int i) {
    HazelcastClusterManager manager =
        (HazelcastClusterManager) ClusteredVertx.managerOf(vertxes.get(i));
    manager.getHazelcastInstance().getLifecycleService().terminate();
  }

  @Test
  void membersLeaveByStopping_theLastOneStaysQuorateAndReady() {
    start(3, 0);
    vertxes.get(0).close().await();
    vertxes.get(1).close().await();

    Await.until(
        () -> rereadByLast.size() >= 2 && last().notReady().isEmpty(), "the last one re-read");
    assertThat(last().quorate()).isTrue();
    assertThat(rereadByLast).noneMatch(ClusterView.Change::dropDecisions);
  }

  @Test
  void membersVanish_theOneLeftIsCutOffNotReady_andDropsItsDecisions() {
    start(3, 0);
    terminate(0);
    Await.until(
        () -> rereadByLast.size() >= 1 && last().notReady().isEmpty(), "the last one re-read");
    assertThat(last().quorate()).as("2 of 3").isTrue();

    terminate(1);
    Await.until(() -> !last().quorate(), "the last one cut off");
    assertThat(last().notReady()).hasValueSatisfying(why -> assertThat(why).contains("1 of 3"));
    Await.until(
        () -> rereadByLast.stream().anyMatch(ClusterView.Change::dropDecisions),
        "a re-read dropping the decisions");
  }

  @Test
  void quorumSet_fewerMembersThanIt_cutOff() {
    start(2, 3);
    assertThat(views).noneMatch(ClusterView::quorate);
    assertThat(last().notReady()).hasValueSatisfying(why -> assertThat(why).contains("needs 3"));
  }
}
