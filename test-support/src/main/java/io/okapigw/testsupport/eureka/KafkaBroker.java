package io.okapigw.testsupport.eureka;

import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A real Kafka broker ({@code org.apache.kafka:kafka_2.13} from Maven Central, on the class path of
 * it-tests' {@code eureka} profile), one KRaft node that is broker and controller, in a JVM of its
 * own on loopback; no ZooKeeper.
 */
public final class KafkaBroker implements AutoCloseable {

  private static final String MAIN = "kafka.Kafka";
  private static final String STORAGE_TOOL = "kafka.tools.StorageTool";

  private final JavaProcess process;
  private final int port;

  private KafkaBroker(JavaProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * @return why the broker cannot start here (its jars are not on the class path), or empty
   */
  public static Optional<String> missing() {
    try {
      Class.forName(MAIN, false, KafkaBroker.class.getClassLoader());
      return Optional.empty();
    } catch (ClassNotFoundException e) {
      return Optional.of(
          "no Kafka broker on the class path (org.apache.kafka:kafka_2.13, it-tests' eureka"
              + " profile, -Peureka)");
    }
  }

  /**
   * Formats a log directory under {@code dir}, starts the broker on free ports and waits until it
   * listens.
   */
  public static KafkaBroker start(Path dir, Duration timeout) throws IOException {
    int port = FreePorts.belowEphemeralRange();
    int controller = FreePorts.belowEphemeralRange();
    Path logs = Files.createDirectories(dir.resolve("kafka-logs"));
    Path config = dir.resolve("server.properties");
    Files.writeString(
        config,
        String.join(
            "\n",
            "process.roles=broker,controller",
            "node.id=1",
            "controller.quorum.voters=1@127.0.0.1:" + controller,
            "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller,
            "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
            "controller.listener.names=CONTROLLER",
            "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "inter.broker.listener.name=PLAINTEXT",
            "log.dirs=" + logs,
            "num.partitions=1",
            "offsets.topic.replication.factor=1",
            "offsets.topic.num.partitions=1",
            "transaction.state.log.replication.factor=1",
            "transaction.state.log.min.isr=1",
            "group.initial.rebalance.delay.ms=0",
            "auto.create.topics.enable=true",
            ""));
    String classPath = System.getProperty("java.class.path");
    JavaProcess format =
        JavaProcess.start(
            "kafka-storage",
            List.of(
                "-Xmx128m",
                "-cp",
                classPath,
                STORAGE_TOOL,
                "format",
                "-t",
                UUID.randomUUID().toString().replace("-", "").substring(0, 22),
                "-c",
                config.toString()),
            dir.resolve("kafka-format.log"));
    if (format.awaitExit(timeout) != 0) {
      throw new IOException("formatting Kafka's log directory failed:\n" + format.outputTail());
    }
    JavaProcess broker =
        JavaProcess.start(
            "kafka",
            List.of("-Xmx384m", "-cp", classPath, MAIN, config.toString()),
            dir.resolve("kafka.log"));
    KafkaBroker started = new KafkaBroker(broker, port);
    try {
      started.awaitListening(timeout);
      return started;
    } catch (IOException | RuntimeException e) {
      started.close();
      throw e;
    }
  }

  private void awaitListening(Duration timeout) throws IOException {
    Instant deadline = Instant.now().plus(timeout);
    while (true) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return;
      } catch (IOException e) {
        if (!process.isAlive() || Instant.now().isAfter(deadline)) {
          throw new IOException("Kafka did not start:\n" + process.outputTail());
        }
        JavaProcess.pause(300);
      }
    }
  }

  /**
   * @return the bootstrap servers, {@code 127.0.0.1:PORT}
   */
  public String bootstrap() {
    return "127.0.0.1:" + port;
  }

  @Override
  public void close() {
    process.stop(Duration.ofSeconds(10));
  }
}
