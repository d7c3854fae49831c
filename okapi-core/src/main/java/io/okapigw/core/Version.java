package io.okapigw.core;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The build's version, from a resource Maven fills in. */
final class Version {

  private Version() {}

  static String current() {
    try (InputStream in = Version.class.getResourceAsStream("/okapigw-version.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
