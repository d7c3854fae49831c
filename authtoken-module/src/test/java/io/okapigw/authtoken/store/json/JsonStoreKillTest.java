package io.okapigw.authtoken.store.json;

import static io.okapigw.authtoken.TestModule.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durability under kill -9: a child JVM writes to the JSON store as fast as it can and is killed
 * with SIGKILL mid-stream; every write it had acknowledged must be in the store when it is
 * reopened.
 */
@ExtendWith(VertxExtension.class)
class JsonStoreKillTest {
  private static final int ACKS_BEFORE_KILL = 300;

  @TempDir Path dir;

  @Test
  void killMinus9_whileWriting_everyAcknowledgedWriteSurvives(Vertx vertx) throws Exception {
    Path log = dir.resolve("writer.out");
    Process child = startWriter(log);
    try {
      long deadline = System.nanoTime() + JavaProcess.PATIENCE.toNanos();
      while (acked(log).size() < ACKS_BEFORE_KILL
          && child.isAlive()
          && System.nanoTime() < deadline) {
        child.waitFor(20, TimeUnit.MILLISECONDS);
      }
      assertThat(child.isAlive()).as("writer still writing").isTrue();
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
    List<String> acked = acked(log);
    assertThat(acked).hasSizeGreaterThanOrEqualTo(ACKS_BEFORE_KILL);

    AuthStore store = await(JsonAuthStore.open(vertx, dir.resolve("store")));
    for (String id : acked) {
      assertThat(await(store.findUser(JsonStoreWriter.TENANT, id)))
          .as("acknowledged user " + id)
          .isNotNull();
    }
    await(store.close());
  }

  /** The writer prints to a file: what it printed before the kill is all there. */
  private static List<String> acked(Path log) throws Exception {
    return Files.readAllLines(log, StandardCharsets.UTF_8).stream()
        .filter(l -> l.startsWith("ACK "))
        .map(l -> l.substring(4))
        .toList();
  }

  private Process startWriter(Path log) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return new ProcessBuilder(
            java,
            "-Xmx128m",
            "-cp",
            classpath,
            JsonStoreWriter.class.getName(),
            dir.resolve("store").toString())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }
}
