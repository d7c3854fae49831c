package io.okapigw.folio.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.folio.register.SuperAdmin;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The register job's settings, the super admin's credentials above all. */
class RegisterOptionsTest {

  private static final Map<String, String> ENV =
      Map.of("SUPER_ADMIN_PASSWORD", "s3cret", "DEMO_PASSWORD", "d3mo", "EMPTY", "");

  private static RegisterOptions parse(String... args) {
    return RegisterOptions.from(RegisterOptions.SPEC.read(List.of(args)), ENV::get);
  }

  @Test
  void from_noCredentials_openGatewayAsBefore() {
    RegisterOptions options = parse();

    assertThat(options.superAdmin()).isEmpty();
    assertThat(options.protectAdmin()).isFalse();
    assertThat(options.password()).isEqualTo("admin");
  }

  @Test
  void from_adminPasswordEnv_readsTheVariableAndProtectsByDefault() {
    RegisterOptions options = parse("--admin-password-env", "SUPER_ADMIN_PASSWORD");

    assertThat(options.superAdmin()).contains(new SuperAdmin("super_admin", "s3cret"));
    assertThat(options.protectAdmin()).isTrue();
  }

  @Test
  void from_credentialsButProtectAdminFalse_usesThemWithoutProtecting() {
    RegisterOptions options =
        parse("--admin-username", "root", "--admin-password", "pw", "--protect-admin", "false");

    assertThat(options.superAdmin()).contains(new SuperAdmin("root", "pw"));
    assertThat(options.protectAdmin()).isFalse();
  }

  @Test
  void from_passwordEnv_readsTheDemoUsersPassword() {
    assertThat(parse("--password-env", "DEMO_PASSWORD").password()).isEqualTo("d3mo");
  }

  @Test
  void from_protectAdminWithoutCredentials_isRefusedNamingTheSetting() {
    assertThatThrownBy(() -> parse("--protect-admin", "true"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("protect-admin needs the super admin's password");
  }

  @Test
  void from_unsetVariable_isRefusedNamingItNeverAValue() {
    assertThatThrownBy(() -> parse("--admin-password-env", "NOT_SET"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("admin-password-env: environment variable NOT_SET is not set");
    assertThatThrownBy(() -> parse("--password-env", "EMPTY"))
        .hasMessage("password-env: environment variable EMPTY is empty");
    assertThatThrownBy(() -> parse("--admin-password-env", "1BAD"))
        .hasMessageStartingWith("admin-password-env: 1BAD is not an environment variable name");
  }

  @Test
  void from_passwordAndItsVariableBoth_isRefused() {
    assertThatThrownBy(
            () -> parse("--admin-password", "pw", "--admin-password-env", "SUPER_ADMIN_PASSWORD"))
        .hasMessage("give either admin-password or admin-password-env, not both");
  }

  @Test
  void from_theComposeFilesFlags_read() {
    RegisterOptions options =
        parse(
            "--gateway",
            "http://gateway-1:9130/",
            "--members",
            "3",
            "--modules-url",
            "http://modules:9300",
            "--authtoken-url",
            "http://authtoken:8081",
            "--tenant",
            "diku",
            "--username",
            "diku_admin",
            "--password-env",
            "DEMO_PASSWORD",
            "--admin-username",
            "super_admin",
            "--admin-password-env",
            "SUPER_ADMIN_PASSWORD",
            "--public-url",
            "http://localhost:9130",
            "--timeout",
            "3m");

    assertThat(options.gateway()).isEqualTo("http://gateway-1:9130");
    assertThat(options.members()).isEqualTo(3);
    assertThat(options.password()).isEqualTo("d3mo");
    assertThat(options.publicUrl()).isEqualTo("http://localhost:9130");
    assertThat(options.timeout()).hasMinutes(3);
    assertThat(parse("--gateway", "http://127.0.0.1:9470").publicUrl())
        .isEqualTo("http://127.0.0.1:9470");
  }

  @Test
  void from_badValues_refusedNamingTheKey() {
    assertThatThrownBy(() -> parse("--timeout", "180"))
        .hasMessageStartingWith("timeout must be a duration");
    assertThatThrownBy(() -> parse("--members", "0"))
        .hasMessage("members must be between 1 and 64, was '0'");
    assertThatThrownBy(() -> parse("--gateway", "gateway-1:9130"))
        .hasMessage("gateway must be an http:// or https:// URL, was 'gateway-1:9130'");
    assertThatThrownBy(() -> parse("--protect-admin", "maybe"))
        .hasMessageStartingWith("protect-admin must be true or false");
    assertThatThrownBy(() -> parse("--admin-username", ""))
        .hasMessage("admin-username must be a user name, was ''");
    assertThatThrownBy(() -> parse("--seed", "1")).hasMessageStartingWith("unknown setting 'seed'");
  }

  @Test
  void toString_neverShowsAPassword() {
    String text =
        parse("--admin-password-env", "SUPER_ADMIN_PASSWORD", "--password-env", "DEMO_PASSWORD")
            .toString();

    assertThat(text).contains("super_admin").doesNotContain("s3cret").doesNotContain("d3mo");
  }
}
