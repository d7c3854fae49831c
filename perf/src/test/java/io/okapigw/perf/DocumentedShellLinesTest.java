package io.okapigw.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.DocumentedCommands;
import io.okapigw.testsupport.DocumentedCommands.Line;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every shell command of the README and the docs (not the changelog, which keeps commands as they
 * were run then) names things that exist (issue 48), read from the repository itself: a command of
 * the {@code gateway} script; a script of the repository ({@code bash docker/compose.sh}, {@code
 * perf/bench/vs-okapi.sh}, run directly only if executable); a fat jar a module of the build writes
 * ({@code java -jar perf/target/perf-fat.jar}); Maven modules, profiles and test classes ({@code
 * mvn -pl it-tests -Peureka -Dit.test=EurekaTenantsIT}). The flags of each program's lines are
 * checked against its declared settings by the DocumentedCommandsTest of its module. What is not
 * ours (curl, docker, a jar outside the repository, a JSON body or an answer shown) is not checked.
 * What "runs as written" means here: docs/testing.md.
 */
class DocumentedShellLinesTest {

  private static final Path ROOT = Path.of("..");
  private static final Pattern SCRIPT = Pattern.compile("\\.?[a-z][a-z0-9_.-]*/[A-Za-z0-9_./-]+");
  private static final Pattern OUR_JAR =
      Pattern.compile("([a-z][a-z0-9-]*)/target/([A-Za-z0-9_.-]+\\.jar)");

  private static List<Line> commands() throws IOException {
    List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md"))
          .filter(p -> !p.endsWith("changelog.md"))
          .sorted()
          .forEach(files::add);
    }
    return DocumentedCommands.shellCommands(files);
  }

  @Test
  void everyCommand_namesAScriptJarModuleProfileOrTestThatExists() throws IOException {
    List<Line> commands = commands();
    Set<String> gateway = gatewayCommands();
    Set<String> tests = testClasses();
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (Line line : commands) {
      List<String> words = line.words();
      String program = line.command();
      int before = problems.size();
      if (program.equals("./gateway")) {
        checked++;
        if (words.size() < 2 || !gateway.contains(words.get(1))) {
          problems.add(line + ": the gateway script has no such command (" + gateway + ")");
        }
      } else if (program.equals("bash") || program.equals("sh")) {
        checked++;
        script(words.size() > 1 ? words.get(1) : "", false).ifPresent(problems::add);
      } else if (SCRIPT.matcher(program).matches() && !program.startsWith("path/")) {
        checked++;
        script(program, true).ifPresent(problems::add);
      } else if (program.equals("java")) {
        checked++;
        jar(words).ifPresent(problems::add);
      } else if (program.equals("mvn")) {
        checked++;
        problems.addAll(maven(words, tests));
      }
      for (int i = before; i < problems.size(); i++) {
        problems.set(i, line + ": " + problems.get(i));
      }
    }
    assertThat(checked).as("commands checked").isGreaterThan(100);
    assertThat(problems).as("documented commands that cannot run as written").isEmpty();
  }

  /** A script of the repository: it exists, and is executable if run without bash. */
  private static java.util.Optional<String> script(String path, boolean direct) {
    if (path.isEmpty() || path.startsWith("/") || path.startsWith("$") || path.startsWith("-")) {
      return java.util.Optional.empty();
    }
    Path file = ROOT.resolve(path);
    if (!Files.isRegularFile(file)) {
      return java.util.Optional.of("no script " + path + " in the repository");
    }
    if (direct && !Files.isExecutable(file)) {
      return java.util.Optional.of(path + " is not executable (run it with bash, or chmod +x)");
    }
    return java.util.Optional.empty();
  }

  /** {@code java ... -jar MODULE/target/NAME.jar}: a module of ours that writes NAME.jar. */
  private static java.util.Optional<String> jar(List<String> words) throws IOException {
    int at = words.indexOf("-jar");
    if (at < 0 || at + 1 >= words.size()) {
      return java.util.Optional.empty();
    }
    Matcher m = OUR_JAR.matcher(words.get(at + 1));
    if (!m.matches()) {
      return java.util.Optional.empty(); // a jar outside the repository (Okapi's, an old build)
    }
    Path pom = ROOT.resolve(m.group(1)).resolve("pom.xml");
    if (!Files.isRegularFile(pom)) {
      return java.util.Optional.of("no module " + m.group(1));
    }
    if (!Files.readString(pom).contains("${project.build.directory}/" + m.group(2))) {
      return java.util.Optional.of(m.group(1) + "'s build writes no " + m.group(2));
    }
    return java.util.Optional.empty();
  }

  /** {@code -pl} modules, {@code -P} profiles and {@code -Dtest}/{@code -Dit.test} classes. */
  private static List<String> maven(List<String> words, Set<String> tests) throws IOException {
    List<String> problems = new ArrayList<>();
    for (int i = 0; i + 1 < words.size(); i++) {
      if (words.get(i).equals("-pl")) {
        for (String module : words.get(i + 1).split(",")) {
          Path pom = ROOT.resolve(module.replaceFirst("^[!:]+", "")).resolve("pom.xml");
          if (!Files.isRegularFile(pom)) {
            problems.add("no module " + module);
          }
        }
      }
    }
    // a profile of any module of the reactor is activated by -P (-am brings the modules in)
    String declared = "";
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path pom :
          modules.map(m -> m.resolve("pom.xml")).filter(Files::isRegularFile).toList()) {
        declared += Files.readString(pom);
      }
    }
    declared += Files.readString(ROOT.resolve("pom.xml"));
    for (String word : words) {
      if (word.startsWith("-P") && word.length() > 2) {
        for (String profile : word.substring(2).split(",")) {
          String id = profile.replaceFirst("^[!-]", "");
          if (!declared.contains("<id>" + id + "</id>")) {
            problems.add("no profile " + id + " in any module");
          }
        }
      }
      Matcher test = Pattern.compile("-D(?:it\\.)?test=(.+)").matcher(word);
      if (test.matches()) {
        for (String name : test.group(1).replaceAll("^['\"]|['\"]$", "").split(",")) {
          String simple = name.replaceFirst("#.*", "").replaceFirst(".*\\.", "");
          if (simple.isEmpty() || simple.equalsIgnoreCase("none") || simple.contains("$")) {
            continue;
          }
          Pattern glob = Pattern.compile(simple.replace("*", ".*"));
          if (tests.stream().noneMatch(t -> glob.matcher(t).matches())) {
            problems.add("no test class " + name);
          }
        }
      }
    }
    return problems;
  }

  /** The commands the gateway script's {@code case} knows. */
  static Set<String> gatewayCommands() throws IOException {
    Matcher m =
        Pattern.compile("(?m)^  ([a-z|-]+)\\)$").matcher(Files.readString(ROOT.resolve("gateway")));
    Set<String> commands = new TreeSet<>();
    while (m.find()) {
      commands.addAll(List.of(m.group(1).split("\\|")));
    }
    return commands;
  }

  /** The simple names of every test class of every module. */
  private static Set<String> testClasses() throws IOException {
    try (Stream<Path> files = Files.walk(ROOT, 12)) {
      return files
          .filter(p -> p.toString().contains("/src/test/java/") && p.toString().endsWith(".java"))
          .filter(p -> !p.toString().contains("/target/"))
          .map(p -> p.getFileName().toString().replaceFirst("\\.java$", ""))
          .collect(Collectors.toSet());
    }
  }

  @Test
  void theRules_catchWhatNoLongerExists() throws IOException {
    Set<String> tests = Set.of("GoneTest");
    assertThat(maven(List.of("mvn", "-pl", "no-such-module", "verify"), tests))
        .containsExactly("no module no-such-module");
    assertThat(maven(List.of("mvn", "-pl", "perf", "-Pnope", "verify"), tests))
        .hasSize(1)
        .first()
        .asString()
        .startsWith("no profile nope");
    assertThat(maven(List.of("mvn", "-pl", "perf", "-Pjmeter", "-Dtest=OtherTest"), tests))
        .containsExactly("no test class OtherTest");
    assertThat(maven(List.of("mvn", "-Dtest=Gone*,GoneTest#one", "verify"), tests)).isEmpty();
    assertThat(jar(List.of("java", "-jar", "perf/target/perf-fat.jar"))).isEmpty();
    assertThat(jar(List.of("java", "-jar", "perf/target/other-fat.jar"))).isPresent();
    assertThat(script("docker/no-such.sh", false)).isPresent();
    assertThat(script("docker/compose.sh", false)).isEmpty();
  }
}
