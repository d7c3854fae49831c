package io.okapigw.testsupport;

import io.okapigw.config.Commands;
import io.okapigw.config.SettingsSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command lines the docs and scripts give a program, so that a test can read them with the
 * program's settings and fail when a documented flag or value no longer works. Looks at code only:
 * in markdown, lines of a fenced block or indented by four spaces; in any other file, every line. A
 * line ending in {@code \} goes on with the next; a shell comment, redirection or operator ends the
 * command.
 */
public final class DocumentedCommands {

  /**
   * One documented command line.
   *
   * @param file where it is
   * @param line its first line (1-based)
   * @param words the command word and its arguments, quotes removed
   */
  public record Line(Path file, int line, List<String> words) {

    private static final Pattern PLACEHOLDER = Pattern.compile("[$\\[\\]<>{}|]|\\.\\.\\.");

    /**
     * @return the command word ({@code checkout-checkin}), or "" when there is none
     */
    public String command() {
      return words.isEmpty() ? "" : words.get(0);
    }

    /**
     * @return the words after the command word
     */
    public List<String> args() {
      return words.subList(Math.min(1, words.size()), words.size());
    }

    /**
     * @return whether every word is a value as typed, no {@code $VARIABLE}, {@code [optional]} or
     *     {@code <placeholder>}: then the line can be read as it stands
     */
    public boolean concrete() {
      return words.stream().noneMatch(w -> PLACEHOLDER.matcher(w).find());
    }

    /**
     * @return the keys of its flags: {@code --users 8}, {@code --users=8} and {@code [--users N]}
     *     give {@code users}; a word with blanks (a quoted value, {@code --gateway-args '--x 1'})
     *     is no flag
     */
    public List<String> keys() {
      return args().stream()
          .map(w -> w.replaceFirst("^\\[+", ""))
          .filter(w -> w.startsWith("-") && !w.matches("-\\d.*") && !w.matches("(?s).*\\s.*"))
          .map(w -> w.replaceFirst("^--?", "").replaceFirst("[=\\]].*", ""))
          .toList();
    }

    @Override
    public String toString() {
      return file + ":" + line + ": " + String.join(" ", words);
    }
  }

  private static final Set<String> ENDS = Set.of("&", "&&", "||", "|", ";", "2>&1");

  private DocumentedCommands() {}

  /**
   * @param program how the program is started, e.g. {@code perf-fat\.jar|\$perf_jar}: the words
   *     after its first match on a line are the command line
   * @param files markdown files and scripts; a directory stands for the text files in it
   * @return every command line of {@code program} in them, in order (a mention without a command
   *     word, such as a list of jars, left out)
   */
  public static List<Line> find(Pattern program, List<Path> files) {
    List<Line> found = new ArrayList<>();
    for (Map.Entry<Path, String> source : read(files).entrySet()) {
      Path file = source.getKey();
      List<String> lines = Arrays.asList(source.getValue().split("\n", -1));
      boolean markdown = file.toString().endsWith(".md");
      boolean fenced = false;
      for (int i = 0; i < lines.size(); i++) {
        String text = lines.get(i);
        if (markdown && text.strip().startsWith("```")) {
          fenced = !fenced;
          continue;
        }
        boolean code = !markdown || fenced || text.startsWith("    ");
        Matcher m = program.matcher(text);
        if (!code || !m.find()) {
          continue;
        }
        StringBuilder command = new StringBuilder(text.substring(m.end()));
        int first = i;
        while (command.toString().stripTrailing().endsWith("\\") && i + 1 < lines.size()) {
          String joined = command.toString().stripTrailing();
          command = new StringBuilder(joined.substring(0, joined.length() - 1)).append(' ');
          command.append(lines.get(++i));
        }
        List<String> words = words(command.toString());
        if (!words.isEmpty()) {
          found.add(new Line(file, first + 1, words));
        }
      }
    }
    return found;
  }

  /**
   * The programs cell of a module's row in docs/architecture.md's table of modules (its last
   * column: the jar and its commands), read from a module folder.
   *
   * @param module the module's folder name, e.g. {@code okapi-core}
   * @throws IllegalStateException if the table has no row for it
   */
  public static String architecturePrograms(String module) {
    try {
      String row =
          Files.readAllLines(Path.of("../docs/architecture.md")).stream()
              .filter(l -> l.startsWith("| `" + module + "` |"))
              .findFirst()
              .orElseThrow(
                  () -> new IllegalStateException("docs/architecture.md has no row " + module));
      String cells = row.strip().substring(0, row.strip().length() - 1);
      return cells.substring(cells.lastIndexOf('|') + 1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Every shell command of the code in {@code files} (markdown: fenced blocks and lines indented by
   * four spaces), whatever its program: a line ending in {@code \} goes on with the next, a line of
   * {@code a && b}, {@code a || b}, {@code a; b} or {@code a | b} gives one command each, and the
   * environment assignments ({@code WARMUP=30s}) and {@code sudo} before a command are left out, so
   * that {@link Line#command()} is the program ({@code ./gateway}, {@code mvn}, {@code
   * perf/bench/vs-okapi.sh}). Words are as {@link #find} gives them; a line that is no command (a
   * JSON body, an answer) gives one too: telling those apart is the caller's.
   */
  public static List<Line> shellCommands(List<Path> files) {
    List<Line> found = new ArrayList<>();
    for (Map.Entry<Path, String> source : read(files).entrySet()) {
      List<String> lines = Arrays.asList(source.getValue().split("\n", -1));
      boolean markdown = source.getKey().toString().endsWith(".md");
      boolean fenced = false;
      for (int i = 0; i < lines.size(); i++) {
        String text = lines.get(i);
        if (markdown && text.strip().startsWith("```")) {
          fenced = !fenced;
          continue;
        }
        if (markdown && !fenced && !text.startsWith("    ")) {
          continue;
        }
        int first = i;
        while (text.stripTrailing().endsWith("\\") && i + 1 < lines.size()) {
          String joined = text.stripTrailing();
          text = joined.substring(0, joined.length() - 1) + " " + lines.get(++i);
        }
        List<String> words = new ArrayList<>();
        for (String word : shellWords(text)) {
          if (word.startsWith("#")) {
            break;
          }
          if (ENDS.contains(word) && !word.equals("2>&1")) {
            add(found, source.getKey(), first, words);
            words = new ArrayList<>();
          } else if (!(words.isEmpty()
              && (ASSIGNMENT.matcher(word).matches() || word.equals("sudo")))) {
            words.add(word);
          }
        }
        add(found, source.getKey(), first, words);
      }
    }
    return found;
  }

  private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*");

  private static void add(List<Line> found, Path file, int line, List<String> words) {
    if (!words.isEmpty()) {
      found.add(new Line(file, line + 1, List.copyOf(words)));
    }
  }

  /**
   * The command lines of {@code program} in README.md and docs/ (not docs/changelog.md, which
   * records the commands as they were run then), run from a module folder, and in {@code more}.
   *
   * @param more scripts and folders of them, relative to the module folder
   */
  public static List<Line> inDocs(Pattern program, Path... more) {
    List<Path> files = new ArrayList<>(List.of(Path.of("../README.md"), Path.of("../docs")));
    files.addAll(List.of(more));
    return find(program, files).stream()
        .filter(line -> !line.file().endsWith("changelog.md"))
        .toList();
  }

  /**
   * Checks documented command lines against the program's declarations.
   *
   * @return one text per problem, naming the line: an unknown command, a flag that is no setting of
   *     its command, or a line written out in full that does not read by the settings' rules (a
   *     line with {@code -conf FILE} is not read: the file is not here)
   */
  public static List<String> problems(List<Line> lines, Commands commands) {
    List<String> problems = new ArrayList<>();
    for (Line line : lines) {
      if (!commands.names().contains(line.command())) {
        problems.add(line + ": no command " + line.command());
        continue;
      }
      SettingsSpec spec = commands.spec(line.command());
      List<String> unknown =
          line.keys().stream()
              .filter(k -> !k.equals("conf") && !spec.keys().contains(k))
              .filter(k -> !spec.aliasKeys().contains(k))
              .toList();
      if (!unknown.isEmpty()) {
        problems.add(line + ": no such setting " + String.join(", ", unknown));
      } else if (line.concrete() && !line.keys().contains("conf")) {
        try {
          spec.read(line.args());
        } catch (IllegalArgumentException e) {
          problems.add(line + ": " + e.getMessage());
        }
      }
    }
    return problems;
  }

  /**
   * The words up to a shell comment, redirection or operator ({@code |} inside {@code [...]} is an
   * alternative); none unless the first is a command word.
   */
  private static List<String> words(String command) {
    List<String> words = new ArrayList<>();
    int optional = 0;
    for (String word : shellWords(command)) {
      boolean alternative = word.equals("|") && optional > 0;
      if (word.startsWith("#") || word.matches("\\d?>.*") || ENDS.contains(word) && !alternative) {
        break;
      }
      optional += count(word, '[') - count(word, ']');
      words.add(word.replaceAll("^[\"']|[\"']$", ""));
    }
    boolean isCommand = !words.isEmpty() && words.get(0).matches("[a-z][a-z0-9-]*");
    return isCommand ? List.copyOf(words) : List.of();
  }

  /**
   * The words of a command line as a shell splits it: at blanks, except inside quotes, which stay
   * on the word ({@code --gateway-args '--auth.breaker.failures 0'} is two words).
   */
  static List<String> shellWords(String command) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    char quote = 0;
    for (char c : command.strip().toCharArray()) {
      if (quote == 0 && Character.isWhitespace(c)) {
        if (!word.isEmpty()) {
          words.add(word.toString());
          word.setLength(0);
        }
        continue;
      }
      if (quote == 0 && (c == '\'' || c == '"')) {
        quote = c;
      } else if (c == quote) {
        quote = 0;
      }
      word.append(c);
    }
    if (!word.isEmpty()) {
      words.add(word.toString());
    }
    return words;
  }

  private static int count(String word, char c) {
    return (int) word.chars().filter(x -> x == c).count();
  }

  /**
   * @return each file's text, in order; a directory stands for its text files (UTF-8, no NUL: not a
   *     picture beside the docs), each read once
   */
  private static Map<Path, String> read(List<Path> files) {
    Map<Path, String> texts = new LinkedHashMap<>();
    try {
      for (Path file : files) {
        if (!Files.isDirectory(file)) {
          texts.put(file, Files.readString(file));
          continue;
        }
        try (var list = Files.list(file)) {
          for (Path entry : list.filter(Files::isRegularFile).sorted().toList()) {
            text(Files.readAllBytes(entry)).ifPresent(text -> texts.put(entry, text));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return texts;
  }

  private static Optional<String> text(byte[] bytes) {
    for (byte b : bytes) {
      if (b == 0) {
        return Optional.empty();
      }
    }
    try {
      return Optional.of(
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }
}
