package io.okapigw.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.SilentServer;
import io.okapigw.testsupport.process.JavaProcess;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway never hangs at start (issue 48): with a registry in a PostgreSQL whose first connect
 * never answers, the start deadline ends the process with status 1 and a line saying why, where
 * before it neither listened nor exited.
 */
class StartDeadlineProcessTest {

  @TempDir Path dir;

  @Test
  void registryThatNeverAnswers_exitsWithStatus1PastTheStartTimeout() throws Exception {
    try (SilentServer postgres = SilentServer.start();
        JavaProcess gateway =
            JavaProcess.startMain(
                "gateway",
                "192m",
                Main.class,
                List.of(
                    "dev",
                    "--port",
                    "0",
                    "--storage",
                    "postgresql://u:p@127.0.0.1:" + postgres.port() + "/db",
                    "--start-timeout",
                    "15s"),
                dir.resolve("gateway.log"))) {

      int status = gateway.awaitExit(JavaProcess.PATIENCE);

      assertThat(status).as(gateway.outputTail()).isEqualTo(1);
      assertThat(gateway.output()).contains("gateway did not start within 15s");
      assertThat(postgres.accepted()).as("connections to the silent server").isPositive();
    }
  }
}
