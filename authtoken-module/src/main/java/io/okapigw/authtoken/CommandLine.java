package io.okapigw.authtoken;

import io.okapigw.config.Settings;
import java.util.List;
import java.util.function.Function;

/**
 * Command-line parsing into {@link AuthtokenOptions}: {@code --key value}, {@code --key=value} or
 * the keys of a {@code -conf} JSON file, read by the rules every program of ours shares (the {@code
 * config} module) through the declarations {@link AuthtokenOptions#SETTINGS} gathers.
 */
public final class CommandLine {
  /** Usage text printed by {@code --help} and after a bad setting. */
  public static final String USAGE =
      "Usage: java -jar authtoken-module-fat.jar [settings]\n"
          + Settings.RULES
          + AuthtokenOptions.SETTINGS.help()
          + "  --help\n      print this and exit";

  private CommandLine() {}

  /**
   * @param args command-line arguments
   * @return the options, validated ({@code --bootstrap-env} reads the process environment)
   * @throws IllegalArgumentException naming the unknown or bad setting
   */
  public static AuthtokenOptions parse(String[] args) {
    return parse(args, System::getenv);
  }

  /**
   * @param args command-line arguments
   * @param env the environment {@code --bootstrap-env} reads passwords from
   * @return the options, validated
   * @throws IllegalArgumentException naming the unknown or bad setting (or unset variable)
   */
  public static AuthtokenOptions parse(String[] args, Function<String, String> env) {
    return AuthtokenOptions.from(AuthtokenOptions.SETTINGS.read(List.of(args)), env);
  }

  /**
   * @param args command-line arguments
   * @return whether {@code --help} or {@code -h} is among them
   */
  public static boolean wantsHelp(String[] args) {
    for (String arg : args) {
      if ("--help".equals(arg) || "-h".equals(arg)) {
        return true;
      }
    }
    return false;
  }
}
