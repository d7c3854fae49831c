package io.okapigw.folio.containers;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The commands the register job prints paste as they are (issue 48): every shell variable they read
 * is set by a line before it, and a password other than the demo value is never printed.
 */
class RegisterInstructionsTest {

  private static final JsonObject MANIFEST =
      new JsonObject().put("servicePointId", "sp-1").put("modules", new JsonArray().add("m"));

  private static String instructions(String demoPassword, String adminPassword) {
    Map<String, String> env =
        Map.of("DEMO_PASSWORD", demoPassword, "SUPER_ADMIN_PASSWORD", adminPassword);
    RegisterOptions options =
        RegisterOptions.from(
            RegisterOptions.SPEC.read(
                List.of(
                    "--password-env",
                    "DEMO_PASSWORD",
                    "--admin-username",
                    "super_admin",
                    "--admin-password-env",
                    "SUPER_ADMIN_PASSWORD")),
            env::get);
    return RegisterCommand.instructions(options, MANIFEST);
  }

  /** The variables the text reads before a line of it assigns them. */
  private static Set<String> unsetVariables(String text) {
    Set<String> assigned = new LinkedHashSet<>();
    Set<String> unset = new LinkedHashSet<>();
    Pattern assign = Pattern.compile("(?:^|\\s|read -rsp '[^']*' )([A-Z_]+)(?:=|;)");
    Pattern read = Pattern.compile("\\$\\{?([A-Z_]+)");
    for (String line : text.split("\n")) {
      Matcher used = read.matcher(line);
      while (used.find()) {
        if (!assigned.contains(used.group(1))) {
          unset.add(used.group(1));
        }
      }
      Matcher set = assign.matcher(line.strip());
      while (set.find()) {
        assigned.add(set.group(1));
      }
    }
    return unset;
  }

  @Test
  void demoPasswords_areSetInTheCommandsThemselves() {
    String text = instructions("admin", "admin");

    assertThat(unsetVariables(text)).as(text).isEmpty();
    assertThat(text).contains("DEMO_PASSWORD=admin").contains("SUPER_ADMIN_PASSWORD=admin");
  }

  @Test
  void otherPasswords_areAskedFor_neverPrinted() {
    String text = instructions("s3cret-demo", "s3cret-admin");

    assertThat(unsetVariables(text)).as(text).isEmpty();
    assertThat(text).doesNotContain("s3cret");
    assertThat(text).contains("read -rsp 'password of diku_admin: ' DEMO_PASSWORD");
    assertThat(text).contains("read -rsp 'password of super_admin: ' SUPER_ADMIN_PASSWORD");
  }
}
