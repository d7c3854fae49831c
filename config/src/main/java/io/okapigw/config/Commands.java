package io.okapigw.config;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The command line of a program of several commands, {@code PROGRAM COMMAND [settings]}. Each
 * command is declared once: its name, what it does, its settings ({@link SettingsSpec}) and what
 * runs it. From that come the usage text, {@code help [COMMAND]} and {@code COMMAND --help}, the
 * reading of a command's settings (unknown keys refused), and exit status 2 with one line naming a
 * bad setting or command.
 *
 * <pre>{@code
 * Commands.of("java -jar perf/target/perf-fat.jar")
 *     .add("fixed-module", "a module answering ...", FixedModuleOptions.SPEC, FixedModule::serve)
 *     .main(args);
 * }</pre>
 */
public final class Commands {

  /** What a command does with its settings. */
  @FunctionalInterface
  public interface Runner {
    /**
     * Runs the command; it may return while servers it started keep the process alive.
     *
     * @param settings the command's settings, unknown keys already refused
     * @throws IllegalArgumentException naming a bad setting: the program exits with status 2
     */
    void run(Settings settings);
  }

  /** Exit status for an unknown command or a bad setting. */
  public static final int BAD_USAGE = 2;

  /**
   * What {@link #execute(List)} returned and printed.
   *
   * @param status the exit status
   * @param out the usage printed
   * @param err the line naming an unknown command or a bad setting, with its newline
   */
  public record Outcome(int status, String out, String err) {}

  private record Command(String name, String about, SettingsSpec spec, Runner runner) {}

  private final String program;
  private final List<Command> commands;
  private final Map<String, String> unsupported;

  private Commands(String program, List<Command> commands, Map<String, String> unsupported) {
    this.program = program;
    this.commands = List.copyOf(commands);
    this.unsupported = new LinkedHashMap<>(unsupported);
  }

  /**
   * @param program how the program is started, for the usage text: {@code java -jar x.jar}
   * @return a program without commands yet
   */
  public static Commands of(String program) {
    return new Commands(program, List.of(), Map.of());
  }

  /**
   * @param about what the command does, one paragraph (wrapped in the usage text)
   * @return these commands followed by this one
   */
  public Commands add(String name, String about, SettingsSpec spec, Runner runner) {
    checkNew(name);
    List<Command> all = new ArrayList<>(commands);
    all.add(new Command(name, about, spec, runner));
    return new Commands(program, all, unsupported);
  }

  /**
   * A command another program has (Okapi's {@code deployment}) that this one does not: given, it
   * exits with {@link #BAD_USAGE} and {@code command 'NAME' is not supported: REASON}.
   *
   * @param reason why, and what to use instead
   * @return these commands refusing that one too
   */
  public Commands unsupported(String name, String reason) {
    checkNew(name);
    Map<String, String> all = new LinkedHashMap<>(unsupported);
    all.put(name, reason);
    return new Commands(program, commands, all);
  }

  private void checkNew(String name) {
    if (name.equals("help") || find(name).isPresent() || unsupported.containsKey(name)) {
      throw new IllegalArgumentException("command " + name + " is declared twice");
    }
  }

  /**
   * @return these commands followed by {@code name}, which has no settings ({@code version})
   */
  public Commands add(String name, String about, Runnable runner) {
    return add(name, about, SettingsSpec.of(), settings -> runner.run());
  }

  /**
   * @return the commands' names, in order
   */
  public List<String> names() {
    return commands.stream().map(Command::name).toList();
  }

  /**
   * @return the settings of command {@code name}
   * @throws IllegalArgumentException if there is no such command
   */
  public SettingsSpec spec(String name) {
    return command(name).spec();
  }

  /**
   * @return the usage text: the commands, the rules of values, then each command's settings (a
   *     command declaring all of an earlier one's settings lists only the others)
   */
  public String usage() {
    StringBuilder out = new StringBuilder("usage: " + program + " COMMAND [settings]\ncommands:\n");
    for (Command c : commands) {
      out.append("  ").append(c.name()).append('\n');
      SettingsSpec.wrap(c.about(), out);
    }
    out.append("  help [COMMAND]\n");
    SettingsSpec.wrap("this text, or one command's (as COMMAND --help)", out);
    unsupported.forEach(
        (name, reason) -> {
          out.append("  ").append(name).append(" (not supported)\n");
          SettingsSpec.wrap(reason, out);
        });
    if (commands.stream().anyMatch(c -> !c.spec().keys().isEmpty())) {
      out.append('\n').append(Settings.RULES);
    }
    if (commands.stream().anyMatch(c -> c.spec().hasAliases())) {
      out.append(SettingsSpec.ALIASES);
    }
    List<Command> shown = new ArrayList<>();
    for (Command c : commands) {
      if (c.spec().keys().isEmpty()) {
        continue;
      }
      Optional<Command> base =
          shown.stream().filter(earlier -> c.spec().includes(earlier.spec())).findFirst();
      out.append('\n').append(c.name()).append(" settings");
      if (base.isPresent()) {
        out.append(": those of ").append(base.get().name()).append(", and\n");
        out.append(c.spec().without(base.get().spec()).help());
      } else {
        out.append(":\n").append(c.spec().help());
      }
      shown.add(c);
    }
    return out.toString();
  }

  /**
   * @return the usage text of one command: what it does and its settings
   * @throws IllegalArgumentException if there is no such command
   */
  public String usage(String name) {
    Command c = command(name);
    StringBuilder out = new StringBuilder("usage: " + program + " " + name + " [settings]\n");
    SettingsSpec.wrap(c.about(), out);
    if (!c.spec().keys().isEmpty()) {
      out.append('\n').append(Settings.RULES);
      if (c.spec().hasAliases()) {
        out.append(SettingsSpec.ALIASES);
      }
      out.append(c.spec().help());
    }
    return out.toString();
  }

  /**
   * Runs the command {@code args} name with the rest of {@code args} as its settings; {@code help},
   * {@code help COMMAND}, {@code COMMAND --help} (or {@code -h}) and no arguments print usage. The
   * command word may also follow settings that take a value, as Okapi allows ({@code -conf
   * okapi.json dev}). No system properties are read.
   *
   * @param out where usage goes
   * @param err where the one line naming an unknown command or a bad setting goes
   * @return 0 when the command ran (or usage was asked for), {@link #BAD_USAGE} for an unknown
   *     command or a bad setting
   */
  public int execute(List<String> args, PrintStream out, PrintStream err) {
    return execute(args, Map.of(), out, err);
  }

  /**
   * As {@link #execute(List, PrintStream, PrintStream)}, reading the aliases of the command's
   * settings (and its refused and noted keys) from {@code properties} too.
   *
   * @param properties the process's {@code -D} system properties
   */
  public int execute(
      List<String> args, Map<String, String> properties, PrintStream out, PrintStream err) {
    List<String> ordered = commandFirst(args);
    String name = ordered.isEmpty() ? "help" : ordered.get(0);
    List<String> rest = ordered.subList(Math.min(1, ordered.size()), ordered.size());
    if (List.of("help", "--help", "-h").contains(name)) {
      name = rest.isEmpty() ? null : rest.get(0);
      rest = List.of("--help");
    }
    if (name == null) {
      out.print(usage());
      return 0;
    }
    if (unsupported.containsKey(name)) {
      err.println("command '" + name + "' is not supported: " + unsupported.get(name));
      return BAD_USAGE;
    }
    Optional<Command> command = find(name);
    if (command.isEmpty()) {
      err.println(
          "unknown command '"
              + name
              + "'; commands: "
              + String.join(", ", names())
              + " (help: "
              + program
              + " help)");
      return BAD_USAGE;
    }
    if (rest.contains("--help") || rest.contains("-h")) {
      out.print(usage(name));
      return 0;
    }
    try {
      command.get().runner().run(command.get().spec().read(rest, properties));
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("bad setting: " + e.getMessage() + " (" + program + " " + name + " --help)");
      return BAD_USAGE;
    }
  }

  /**
   * The arguments with the command word first: when they start with settings ({@code -conf FILE
   * dev}), the first word that is no setting's value is the command.
   */
  private static List<String> commandFirst(List<String> args) {
    if (args.isEmpty()
        || !args.get(0).startsWith("-")
        || List.of("-h", "--help").contains(args.get(0))) {
      return args;
    }
    int i = 0;
    while (i < args.size() && args.get(i).startsWith("-")) {
      i += args.get(i).contains("=") ? 1 : 2;
    }
    if (i >= args.size()) {
      return args;
    }
    List<String> ordered = new ArrayList<>(args);
    ordered.add(0, ordered.remove(i));
    return ordered;
  }

  /**
   * {@link #execute(List, PrintStream, PrintStream)} with what it prints kept: how a test sees that
   * a bad setting stops the program before anything starts.
   *
   * @return the status and what was printed
   */
  public Outcome execute(List<String> args) {
    return execute(args, Map.of());
  }

  /**
   * {@link #execute(List)} with these {@code -D} system properties.
   *
   * @return the status and what was printed
   */
  public Outcome execute(List<String> args, Map<String, String> properties) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        execute(
            args,
            properties,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /**
   * {@link #execute(List, PrintStream, PrintStream)} on the process's arguments, stdout and stderr;
   * exits with {@link #BAD_USAGE} for an unknown command or a bad setting, else returns (leaving
   * running what the command started).
   */
  public void main(String[] args) {
    int status = execute(List.of(args), systemProperties(), System.out, System.err);
    if (status != 0) {
      System.exit(status);
    }
  }

  /** The JVM's system properties that have text values. */
  private static Map<String, String> systemProperties() {
    Map<String, String> properties = new HashMap<>();
    System.getProperties()
        .stringPropertyNames()
        .forEach(k -> properties.put(k, System.getProperty(k)));
    return properties;
  }

  private Optional<Command> find(String name) {
    return commands.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  private Command command(String name) {
    return find(name).orElseThrow(() -> new IllegalArgumentException("no command " + name));
  }
}
