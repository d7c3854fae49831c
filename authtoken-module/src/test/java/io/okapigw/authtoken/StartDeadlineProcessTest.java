package io.okapigw.authtoken;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.SilentServer;
import io.okapigw.testsupport.process.JavaProcess;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module never hangs at start (issue 48): with a PostgreSQL store whose first connect never
 * answers, Vert.x 5's pool fails its timed-out wait with a NullPointerException inside the driver
 * and the start never completes; the start deadline ends the process with status 1 and a line
 * saying why, so that a container's restart policy starts it again.
 */
class StartDeadlineProcessTest {

  @TempDir Path dir;

  @Test
  void storeThatNeverAnswers_exitsWithStatus1PastTheStartTimeout() throws Exception {
    try (SilentServer postgres = SilentServer.start();
        JavaProcess module =
            JavaProcess.startMain(
                "authtoken module",
                "128m",
                Main.class,
                List.of(
                    "--port",
                    "0",
                    "--store",
                    "postgresql://u:p@127.0.0.1:" + postgres.port() + "/db",
                    "--signing-key-file",
                    dir.resolve("signing.key").toString(),
                    "--start-timeout",
                    "15s"),
                dir.resolve("module.log"))) {

      int status = module.awaitExit(JavaProcess.PATIENCE);

      assertThat(status).as(module.outputTail()).isEqualTo(1);
      assertThat(module.output()).contains("authtoken module did not start within 15s");
      assertThat(postgres.accepted()).as("connections to the silent server").isPositive();
    }
  }
}
