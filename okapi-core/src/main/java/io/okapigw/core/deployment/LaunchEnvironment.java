package io.okapigw.core.deployment;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The environment a module's process is started with: its launch descriptor's {@code env} with
 * {@code /_/env} over it, and of the gateway's own environment only the few variables a program
 * needs to run ({@link #KEPT}). Okapi's {@code NuProcessBuilder} hands a module the whole of
 * Okapi's environment; here the gateway's secrets ({@code SECRET_STORE_EPHEMERAL_CONTENT_*}, a
 * database password) stay with the gateway. A container gets the module's variables only.
 */
final class LaunchEnvironment {

  /** The gateway's variables a process gets (unless the module's variables name them too). */
  static final List<String> KEPT =
      List.of("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TZ", "TMPDIR", "JAVA_HOME");

  private LaunchEnvironment() {}

  /**
   * @param gateway the gateway's environment ({@link System#getenv()})
   * @param module the module's variables: its descriptor's {@code env} and {@code /_/env}
   * @return the variables of {@link #KEPT} that {@code gateway} has, with {@code module} over them
   */
  static Map<String, String> of(Map<String, String> gateway, Map<String, String> module) {
    Map<String, String> env = new LinkedHashMap<>();
    KEPT.forEach(
        name -> {
          String value = gateway.get(name);
          if (value != null) {
            env.put(name, value);
          }
        });
    env.putAll(module);
    return env;
  }

  /** Gives {@code builder} exactly {@code env}, none of the JVM's own environment. */
  static ProcessBuilder apply(ProcessBuilder builder, Map<String, String> env) {
    Map<String, String> target = builder.environment();
    target.clear();
    target.putAll(env);
    return builder;
  }
}
