package io.okapigw.it;

import java.nio.file.Path;

/** The fat jars the reactor built before it-tests (set by Maven: okapigw.root). */
public final class Jars {

  private Jars() {}

  public static Path root() {
    return Path.of(System.getProperty("okapigw.root", "..")).toAbsolutePath().normalize();
  }

  public static Path gateway() {
    return root().resolve("okapi-core/target/okapi-core-fat.jar");
  }
}
