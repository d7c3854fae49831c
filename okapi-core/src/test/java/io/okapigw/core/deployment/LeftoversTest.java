package io.okapigw.core.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.Await;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a gateway that is gone recorded and left running is ended at the next start, by pid and
 * start time: a pid that runs with another start time (used again) is never taken, a gateway that
 * still runs keeps its own, and a group a recorded process leads is ended with it.
 */
class LeftoversTest {

  @TempDir Path dir;

  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void stop() {
    started.forEach(p -> p.descendants().forEach(ProcessHandle::destroyForcibly));
    started.forEach(Process::destroyForcibly);
  }

  private Process start(String... command) throws IOException {
    Process process = new ProcessBuilder(command).start();
    started.add(process);
    return process;
  }

  private static JsonObject entry(long pid, String start) {
    return new JsonObject().put("pid", pid).put("start", start);
  }

  private Path record(JsonObject gateway, JsonObject... processes) throws IOException {
    JsonObject launch =
        new JsonObject()
            .put("srvcId", "mod-a-1.0.0")
            .put("instId", "a")
            .put("port", 9131)
            .put("processes", new JsonArray(List.of((Object[]) processes)));
    Path file = dir.resolve("gateway-" + gateway.getLong("pid") + "-1.json");
    Files.writeString(
        file,
        new JsonObject()
            .put("gateway", gateway)
            .put("boot", ProcessLedger.bootId())
            .put("launches", new JsonArray().add(launch))
            .encode());
    return file;
  }

  private static JsonObject gone() {
    return entry(Integer.MAX_VALUE, "1");
  }

  private static JsonObject recorded(Process process) {
    return entry(process.pid(), ProcessLedger.startTime(process.pid()));
  }

  @Test
  void end_goneGatewaysProcess_endedAndItsFileRemoved() throws IOException {
    Process sleep = start("sleep", "1000");
    Path file = record(gone(), recorded(sleep));

    assertThat(Leftovers.end(dir)).isEqualTo(1);

    Await.until(() -> !sleep.isAlive(), "the recorded process ended");
    assertThat(file).doesNotExist();
  }

  @Test
  void end_pidRunningWithAnotherStartTime_leftRunning() throws IOException {
    Process sleep = start("sleep", "1000");
    Path file = record(gone(), entry(sleep.pid(), "1"));

    assertThat(Leftovers.end(dir)).isZero();

    assertThat(sleep.isAlive()).as("another process with the recorded pid").isTrue();
    assertThat(file).doesNotExist();
  }

  @Test
  void end_gatewayStillRunning_itsProcessesAndFileLeftAlone() throws IOException {
    Process sleep = start("sleep", "1000");
    long self = ProcessHandle.current().pid();
    Path file = record(entry(self, ProcessLedger.startTime(self)), recorded(sleep));

    assertThat(Leftovers.end(dir)).isZero();

    assertThat(sleep.isAlive()).isTrue();
    assertThat(file).exists();
  }

  @Test
  void end_recordedGroupLeader_theMembersOfItsGroupEndedToo() throws IOException {
    Process leader = start("setsid", "sh", "-c", "sleep 1000 & sleep 1000 & wait");
    Await.until(() -> leader.descendants().count() == 2, "the leader's two children");
    List<ProcessHandle> members = leader.descendants().toList();
    record(gone(), recorded(leader));

    assertThat(Leftovers.end(dir)).isEqualTo(3);

    Await.until(() -> !leader.isAlive(), "the leader ended");
    assertThat(members)
        .as("running (an orphan's zombie waits for whoever reaps it)")
        .allMatch(h -> ProcessLedger.startTime(h.pid()) == null);
  }
}
