package io.okapigw.it;

import io.okapigw.testsupport.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The fat jars the reactor built before it-tests (set by Maven: okapigw.root). */
public final class Jars {

  private Jars() {}

  public static Path root() {
    return Path.of(System.getProperty("okapigw.root", "..")).toAbsolutePath().normalize();
  }

  public static Path gateway() {
    return root().resolve("okapi-core/target/okapi-core-fat.jar");
  }

  public static Path authtoken() {
    return root().resolve("authtoken-module/target/authtoken-module-fat.jar");
  }

  public static Path folioModules() {
    return root().resolve("folio-modules/target/folio-modules-fat.jar");
  }

  /**
   * Starts the gateway's fat jar in a JVM of its own ({@code -Xmx256m}): {@code dev --port PORT}
   * and {@code settings}, without waiting for it.
   */
  public static JavaProcess devGateway(int port, String... settings) throws IOException {
    List<String> args = new ArrayList<>(List.of("dev", "--port", Integer.toString(port)));
    args.addAll(List.of(settings));
    return JavaProcess.launch(gateway(), List.of("-Xmx256m"), args);
  }
}
