package io.okapigw.perf.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** profile-summary: samples by the category of their innermost owning frame, steps inclusive. */
class ProfileSummaryTest {

  private static final String LOOP =
      "java/lang/Thread.run;io/netty/channel/SingleThreadIoEventLoop.run;"
          + "io/netty/channel/nio/AbstractNioByteChannel$NioByteUnsafe.read;";

  private static final List<String> STACKS =
      List.of(
          LOOP
              + "io/okapigw/core/proxy/ProxyHandler.handle;io/okapigw/core/proxy/ProxyHandler.route;"
              + "io/okapigw/core/routing/RoutingTable.match;java/util/ArrayList.add_[j] 3",
          LOOP
              + "io/okapigw/core/proxy/ProxyHandler.handle;io/vertx/core/http/impl/headers/"
              + "HeadersMultiMap.add;java/util/HashMap.put 1",
          LOOP + "sun/nio/ch/SocketDispatcher.write0;write;entry_SYSCALL_64_[k] 4",
          "start_thread;CompileBroker::compiler_thread_loop;C2Compiler::compile_method 2");

  @Test
  void category_isTheInnermostFrameThatBelongsToOne() {
    assertThat(CostCategory.of(frames(STACKS.get(0)))).isEqualTo("routing");
    assertThat(CostCategory.of(frames(STACKS.get(1)))).startsWith("headers");
    assertThat(CostCategory.of(frames(STACKS.get(2)))).startsWith("syscalls");
    assertThat(CostCategory.of(frames(STACKS.get(3)))).isEqualTo("JIT compiler");
  }

  @Test
  void text_countsSamplesByCategoryAndStep() {
    String text = ProfileSummary.text(STACKS, false);

    assertThat(text)
        .contains("| routing | 3 | 30.0 % |")
        .contains("| syscalls: socket reads, writes and flushes, epoll | 4 | 40.0 % |")
        .contains(
            "| our ProxyHandler.handle (route, auth, filters, module call set-up) | 4 | 40.0 % |")
        .contains("| all | 10 | 100 % |")
        .contains("Samples with kernel frames (system calls, network stack, page faults): 40.0 %");
  }

  @Test
  void text_eventLoopsOnly_leavesTheJitOut() {
    assertThat(ProfileSummary.text(STACKS, true))
        .contains("| all | 8 | 100 % |")
        .contains("| JIT compiler | 0 | 0.0 % |");
  }

  private static List<String> frames(String line) {
    String stack = line.substring(0, line.lastIndexOf(' '));
    return List.of(stack.split(";")).stream().map(ProfileSummary::javaName).toList();
  }
}
