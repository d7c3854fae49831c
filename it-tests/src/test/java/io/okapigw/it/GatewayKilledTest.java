package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.data.CirculationData;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.TestPostgres;
import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway killed with SIGKILL (no code of it runs) leaves none of the module processes it
 * deployed behind: an {@code exec}'d module, and a {@code cmdlineStart} module with a child in its
 * process group, end by themselves; and a gateway started again on the same database (and state
 * directory) ends what the killed one left (a child that left the module's group with {@code
 * setsid}) and runs exactly one process per deployment. Processes are told apart by a variable of
 * their environment, given by the launch descriptor.
 */
class GatewayKilledTest {

  private static final String MODULE = "mod-users";
  private static final String MARK = "OKAPIGW_TEST_MARK";

  @TempDir Path dir;

  private final String execMark = "exec-" + UUID.randomUUID();
  private final String shellMark = "shell-" + UUID.randomUUID();
  private final List<JavaProcess> gateways = new ArrayList<>();
  private OkapiCommandLine line;
  private String srvcId;

  @BeforeEach
  void line() {
    int port = FreePorts.belowEphemeralRange();
    int modules = FreePorts.belowEphemeralRange();
    line =
        OkapiCommandLine.dev(TestPostgres.get().createDatabase(), port)
            .with("port_start", Integer.toString(modules))
            .with("port_end", Integer.toString(modules + 4))
            // the gateway's state directory is under its temporary directory by default
            .with("java.io.tmpdir", dir.toString());
  }

  @AfterEach
  void cleanUp() {
    gateways.forEach(JavaProcess::close);
    for (String mark : List.of(execMark, shellMark)) {
      marked(mark)
          .forEach(p -> ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly));
    }
  }

  @Test
  void gatewayKilled_itsModulesAndTheirGroupsEndByThemselves() throws IOException {
    String url = startGateway();
    deploy(url);
    long escaped = escapedPid();
    assertThat(java(execMark)).hasSize(1);
    assertThat(java(shellMark)).hasSize(1);
    assertThat(names(shellMark)).contains("sleep");

    gateways.get(0).kill();

    Await.until(
        () -> java(execMark).isEmpty() && java(shellMark).isEmpty(),
        "the module processes of the killed gateway ended: " + names(execMark) + names(shellMark));
    Await.until(
        () -> marked(shellMark).stream().allMatch(p -> p.pid() == escaped),
        "what the modules started in their process groups ended: " + names(shellMark));
  }

  @Test
  void gatewayStartedAgain_endsWhatTheKilledOneLeft_oneProcessPerDeployment() throws IOException {
    String url = startGateway();
    deploy(url);
    long escaped = escapedPid();
    Files.delete(dir.resolve("escaped.pid"));

    gateways.get(0).kill();
    String again = startGateway();
    awaitAnswering(again, "exec");
    awaitAnswering(again, "shell");

    assertThat(java(execMark)).as("java processes of the exec deployment").hasSize(1);
    assertThat(java(shellMark)).as("java processes of the cmdlineStart deployment").hasSize(1);
    assertThat(running(escaped)).as("the setsid child the killed gateway's module left").isFalse();
    assertThat(marked(shellMark).stream().filter(p -> p.name().equals("sleep")))
        .as("sleep processes of the cmdlineStart deployment (in its group and setsid)")
        .hasSize(2);
  }

  private String startGateway() throws IOException {
    JavaProcess gateway =
        line.launch(Path.of(System.getProperty("java.home"), "bin", "java"), Jars.gateway(), dir);
    gateways.add(gateway);
    gateway.awaitReady(line.url() + "/_/proxy/health", JavaProcess.PATIENCE);
    return line.url();
  }

  /** mod-users, and two instances of it: one {@code exec}'d, one by {@code cmdlineStart}. */
  private void deploy(String url) {
    JsonObject module =
        CirculationModules.descriptors(CirculationData.Options.defaults()).stream()
            .filter(d -> d.getString("id").startsWith(MODULE + "-"))
            .findFirst()
            .orElseThrow();
    srvcId = module.getString("id");
    given().baseUri(url).body(module.encode()).post("/_/proxy/modules").then().statusCode(201);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String run =
        java
            + " -Xmx64m -jar "
            + Jars.folioModules()
            + " module --name "
            + MODULE
            + " --host 127.0.0.1 --port %p --patrons 10 --items 10";
    String escape =
        "setsid sh -c 'echo $$ > "
            + dir.resolve("escaped.pid")
            + "; exec sleep 1000' > /dev/null 2>&1 & ";
    deploy(url, srvcId, "exec", new JsonObject().put("exec", run), execMark);
    deploy(
        url,
        srvcId,
        "shell",
        new JsonObject().put("cmdlineStart", escape + "sleep 1000 > /dev/null 2>&1 & exec " + run),
        shellMark);
  }

  private static void deploy(
      String url, String srvcId, String instId, JsonObject launch, String mark) {
    launch.put("env", List.of(new JsonObject().put("name", MARK).put("value", mark)));
    given()
        .baseUri(url)
        .body(
            new JsonObject()
                .put("srvcId", srvcId)
                .put("instId", instId)
                .put("nodeId", "localhost")
                .put("descriptor", launch)
                .encode())
        .post("/_/discovery/modules")
        .then()
        .statusCode(201);
  }

  private long escapedPid() throws IOException {
    Path file = dir.resolve("escaped.pid");
    Await.until(() -> read(file).endsWith("\n"), "the setsid child's pid");
    return Long.parseLong(read(file).trim());
  }

  private void awaitAnswering(String url, String instId) {
    Await.until(
        JavaProcess.PATIENCE,
        () -> health(url, instId).contains("\"healthStatus\" : true"),
        "instance " + instId + " started again and answering");
  }

  private String health(String url, String instId) {
    try {
      return given()
          .baseUri(url)
          .get("/_/discovery/health/" + srvcId + "/" + instId)
          .then()
          .extract()
          .asString();
    } catch (RuntimeException e) {
      return e.toString();
    }
  }

  /** A running process: its pid and its program's name. */
  private record Proc(long pid, String name) {}

  private static List<Proc> java(String mark) {
    return marked(mark).stream().filter(p -> p.name().equals("java")).toList();
  }

  private static List<String> names(String mark) {
    return marked(mark).stream().map(Proc::name).toList();
  }

  /**
   * @return the running processes (not zombies) whose environment has {@code MARK=mark}
   */
  private static List<Proc> marked(String mark) {
    List<Proc> found = new ArrayList<>();
    byte[] wanted = (MARK + "=" + mark).getBytes(StandardCharsets.UTF_8);
    try (DirectoryStream<Path> all = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path proc : all) {
        try {
          if (contains(Files.readAllBytes(proc.resolve("environ")), wanted)
              && running(Long.parseLong(proc.getFileName().toString()))) {
            String argv0 = Files.readString(proc.resolve("cmdline")).split("\0", 2)[0];
            found.add(
                new Proc(
                    Long.parseLong(proc.getFileName().toString()),
                    Path.of(argv0).getFileName().toString()));
          }
        } catch (IOException | RuntimeException e) {
          // gone meanwhile, or not ours to read
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return found;
  }

  private static boolean contains(byte[] environ, byte[] entry) {
    int start = 0;
    for (int i = 0; i <= environ.length; i++) {
      if (i == environ.length || environ[i] == 0) {
        if (i - start == entry.length
            && java.util.Arrays.equals(environ, start, i, entry, 0, entry.length)) {
          return true;
        }
        start = i + 1;
      }
    }
    return false;
  }

  /** Alive and not a zombie. */
  private static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException e) {
      return false;
    }
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      return "";
    }
  }
}
