package io.okapigw.perf.kit.process;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that runs a main class of this program in a JVM of its own: from the perf fat
 * jar when running from it, else from this JVM's class path (tests, an IDE).
 */
public final class OwnJvm {

  private OwnJvm() {}

  /**
   * @param jvmArgs e.g. {@code -Xmx256m}
   * @param main a class of this program with a {@code main} method
   * @param args its arguments
   * @return the arguments of {@code java}: {@code jvmArgs -cp CLASSPATH main args}
   */
  public static List<String> javaArgs(List<String> jvmArgs, Class<?> main, List<String> args) {
    List<String> command = new ArrayList<>(jvmArgs);
    command.addAll(List.of("-cp", classpath(), main.getName()));
    command.addAll(args);
    return command;
  }

  /**
   * @return the {@code java} of this JVM
   */
  public static Path java() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  private static String classpath() {
    try {
      Path location =
          Path.of(OwnJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return Files.isRegularFile(location)
          ? location.toString()
          : System.getProperty("java.class.path");
    } catch (URISyntaxException e) {
      return System.getProperty("java.class.path");
    }
  }
}
