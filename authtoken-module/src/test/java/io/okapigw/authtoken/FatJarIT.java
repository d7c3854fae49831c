package io.okapigw.authtoken;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code java -jar target/authtoken-module-fat.jar}: runs after the package phase. */
class FatJarIT {
  private static final Path JAR = Path.of("target", "authtoken-module-fat.jar");
  private static final String SUPER_PASSWORD_VARIABLE = "SUPER_ADMIN_PASSWORD";

  @TempDir Path dir;

  private Process start(Path log, String... args) throws Exception {
    return start(log, Map.of(), args);
  }

  private Process start(Path log, Map<String, String> env, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-jar",
                JAR.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().remove(SUPER_PASSWORD_VARIABLE);
    builder.environment().putAll(env);
    return builder.start();
  }

  @Test
  void fatJar_bootstrapsAnAdmin_logsIn_andFilters() throws Exception {
    int port = FreePorts.belowEphemeralRange(); // told on its command line
    Path log = dir.resolve("out.log");
    Process p =
        start(
            log,
            Map.of(SUPER_PASSWORD_VARIABLE, "super-s3cret"),
            "--port",
            String.valueOf(port),
            "--host",
            "127.0.0.1",
            "--store",
            "json:" + dir.resolve("data"),
            "--signing-key-file",
            dir.resolve("data/signing.key").toString(),
            "--bootstrap",
            "diku:admin:s3cret-pw:authtoken.all",
            "--password-hash-iterations",
            "1000",
            "--bootstrap-env",
            "supertenant:super_admin:" + SUPER_PASSWORD_VARIABLE + ":okapi.all");
    try {
      long deadline = System.nanoTime() + JavaProcess.PATIENCE.toNanos();
      while (!Files.readString(log).contains("listening on")
          && p.isAlive()
          && System.nanoTime() < deadline) {
        p.waitFor(50, TimeUnit.MILLISECONDS);
      }
      assertThat(Files.readString(log)).contains("listening on");
      Response login =
          given()
              .port(port)
              .header("X-Okapi-Tenant", "diku")
              .body("{\"username\":\"admin\",\"password\":\"s3cret-pw\"}")
              .post("/authn/login");
      assertThat(login.statusCode()).isEqualTo(201);
      String token = login.header("X-Okapi-Token");
      given()
          .port(port)
          .header("X-Okapi-Tenant", "diku")
          .header("X-Okapi-Filter", "auth")
          .header("X-Okapi-Token", token)
          .header("X-Okapi-Permissions-Required", "[\"authtoken.all\"]")
          .get("/anything")
          .then()
          .statusCode(202);
      given()
          .port(port)
          .header("X-Okapi-Tenant", "supertenant")
          .body("{\"username\":\"super_admin\",\"password\":\"super-s3cret\"}")
          .post("/authn/login")
          .then()
          .statusCode(201);
      p.destroy();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(Files.readString(log, StandardCharsets.UTF_8))
          .doesNotContain("s3cret")
          .doesNotContain(token);
      assertThat(dir.resolve("data/store.json")).exists();
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void fatJar_badSetting_exits2NamingIt() throws Exception {
    Path log = dir.resolve("bad.log");
    Process p = start(log, "--token-ttl", "forever");
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(Files.readString(log)).contains("--token-ttl").contains("Usage");
  }

  @Test
  void fatJar_bootstrapEnvVariableUnset_exits2NamingIt() throws Exception {
    Path log = dir.resolve("unset.log");
    Process p =
        start(
            log,
            "--bootstrap-env",
            "supertenant:super_admin:" + SUPER_PASSWORD_VARIABLE + ":okapi.all");
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(Files.readString(log))
        .contains("environment variable " + SUPER_PASSWORD_VARIABLE + " is not set");
  }

  @Test
  void fatJar_help_exits0() throws Exception {
    Path log = dir.resolve("help.log");
    Process p = start(log, "--help");
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    assertThat(Files.readString(log)).contains("--signing-key-file");
  }
}
