package io.okapigw.it.containers;

import io.okapigw.it.Jars;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * The project's images, built from {@code docker/*.Dockerfile} and the fat jars the reactor
 * packaged, exactly as {@code docker compose} builds them: the Dockerfile and the jar are the whole
 * build context.
 *
 * <p>Base image: {@code -Dokapigw.base-image}, else the environment's {@code BASE_IMAGE}, else the
 * {@code BASE_IMAGE=} line of {@code docker/.env} (written by {@code docker/offline-setup.sh}),
 * else the Dockerfiles' default ({@code eclipse-temurin:17-jre}, from a registry).
 */
public final class Images {

  static final String DEFAULT_BASE = "eclipse-temurin:17-jre";
  static final String DEFAULT_POSTGRES = "postgres:16";

  private Images() {}

  private static final Map<String, ImageFromDockerfile> BUILT = new ConcurrentHashMap<>();

  static ImageFromDockerfile gateway() {
    return image("gateway", "okapi-core/target/okapi-core-fat.jar");
  }

  static ImageFromDockerfile authtoken() {
    return image("authtoken", "authtoken-module/target/authtoken-module-fat.jar");
  }

  public static ImageFromDockerfile modules() {
    return image("modules", "folio-modules/target/folio-modules-fat.jar");
  }

  /** One build per image and test JVM, however many containers run it. */
  private static ImageFromDockerfile image(String name, String jar) {
    return BUILT.computeIfAbsent(name, n -> build(n, jar));
  }

  private static ImageFromDockerfile build(String name, String jar) {
    Path root = Jars.root();
    Path jarPath = root.resolve(jar);
    if (!Files.exists(jarPath)) {
      throw new IllegalStateException(
          jarPath + " is missing: run mvn package (or verify) from" + " the project root first");
    }
    return new ImageFromDockerfile("okapigw-it/" + name, true)
        .withFileFromPath("Dockerfile", root.resolve("docker/" + name + ".Dockerfile"))
        .withFileFromPath(jarPath.getFileName().toString(), jarPath)
        .withBuildArg("BASE_IMAGE", baseImage());
  }

  public static String baseImage() {
    return configured("okapigw.base-image", "BASE_IMAGE", DEFAULT_BASE);
  }

  /**
   * @return the PostgreSQL image, as compose takes it: {@code -Dokapigw.postgres-image}, else the
   *     environment's or {@code docker/.env}'s {@code POSTGRES_IMAGE}, else {@code postgres:16}
   */
  static String postgresImage() {
    return configured("okapigw.postgres-image", "POSTGRES_IMAGE", DEFAULT_POSTGRES);
  }

  private static String configured(String property, String variable, String otherwise) {
    String given = System.getProperty(property, "");
    if (!given.isBlank()) {
      return given;
    }
    String env = System.getenv(variable);
    if (env != null && !env.isBlank()) {
      return env;
    }
    return fromEnvFile(Jars.root().resolve("docker/.env"), variable).orElse(otherwise);
  }

  private static Optional<String> fromEnvFile(Path file, String variable) {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      return Files.readAllLines(file).stream()
          .map(String::trim)
          .filter(l -> l.startsWith(variable + "="))
          .map(l -> l.substring(variable.length() + 1))
          .filter(s -> !s.isBlank())
          .findFirst();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
  }
}
