package io.okapigw.it;

import java.nio.file.Path;

/** The fat jars the reactor built before it-tests (set by Maven: okapigw.root). */
final class Jars {

  private Jars() {
  }

  static Path root() {
    return Path.of(System.getProperty("okapigw.root", "..")).toAbsolutePath().normalize();
  }

  static Path gateway() {
    return root().resolve("okapi-core/target/okapi-core-fat.jar");
  }
}
