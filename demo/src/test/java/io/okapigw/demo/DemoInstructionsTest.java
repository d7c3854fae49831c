package io.okapigw.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands {@code demo} prints work as pasted: every indented line of the instructions is run,
 * in order, by one bash (so TOKEN and ADMIN_TOKEN carry over, as in a terminal), against a demo
 * stack in this JVM. Needs bash and curl (skipped without them).
 */
class DemoInstructionsTest {

  @TempDir Path dir;

  private final Vertx vertx = Vertx.vertx();
  private DemoStack stack;

  @AfterEach
  void stop() throws Exception {
    if (stack != null) {
      stack.close().await(1, TimeUnit.MINUTES);
    }
    vertx.close().await(1, TimeUnit.MINUTES);
  }

  private DemoStack start(boolean auth) throws Exception {
    stack =
        DemoStack.start(vertx, new DemoOptions(0, 20, 20, auth, true, dir))
            .await(2, TimeUnit.MINUTES);
    return stack;
  }

  /**
   * @return the outputs of the printed commands, one per command
   */
  private static List<String> runPrinted(String instructions) throws Exception {
    assumeTrue(available("curl") && available("bash"), "needs bash and curl");
    StringBuilder script = new StringBuilder("set -e\n");
    for (String line : instructions.split("\n")) {
      if (line.startsWith("    ")) {
        script.append(line).append('\n');
      } else if (line.startsWith("  ")) {
        script.append("echo; echo '#### next command'\n").append(line).append('\n');
      }
    }
    Process bash =
        new ProcessBuilder("bash", "-c", script.toString()).redirectErrorStream(true).start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bash.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(bash.exitValue()).as("bash exit; script:%n%s%noutput:%n%s", script, out).isZero();
    List<String> outputs = new ArrayList<>(List.of(out.split("#### next command\n")));
    outputs.remove(0);
    return outputs;
  }

  private static boolean available(String program) throws IOException, InterruptedException {
    Process which =
        new ProcessBuilder("bash", "-c", "command -v " + program).redirectErrorStream(true).start();
    which.getInputStream().readAllBytes();
    return which.waitFor() == 0;
  }

  @Test
  void printed_protectedDemo_everyCommandWorksAsPasted() throws Exception {
    List<String> out = runPrinted(DemoCommand.instructions(start(true)));

    assertThat(out).hasSize(8);
    assertThat(out.get(0)).as("login as diku_admin").isBlank();
    assertThat(out.get(1)).as("check-out").contains("\"action\":\"checkedout\"");
    assertThat(out.get(2)).as("check-in").contains("\"action\":\"checkedin\"");
    assertThat(out.get(3)).as("admin call without a token").startsWith("HTTP/1.1 401");
    assertThat(out.get(4)).as("login as super_admin").isBlank();
    assertThat(out.get(5)).as("tenants").contains("\"id\" : \"diku\"");
    assertThat(out.get(6)).as("auth cache").contains("\"hitRatio\"");
    assertThat(out.get(7)).as("metrics").contains("okapi_auth_calls_total{");
  }

  @Test
  void printed_demoWithoutAuth_everyCommandWorksAsPasted() throws Exception {
    List<String> out = runPrinted(DemoCommand.instructions(start(false)));

    assertThat(out).hasSize(5);
    assertThat(out.get(0)).as("check-out").contains("\"action\":\"checkedout\"");
    assertThat(out.get(1)).as("check-in").contains("\"action\":\"checkedin\"");
    assertThat(out.get(2)).as("tenants").contains("\"id\" : \"diku\"");
    assertThat(out.get(3)).as("auth cache").contains("\"hitRatio\"");
    assertThat(out.get(4)).as("metrics").contains("jvm_memory_used_bytes");
  }
}
