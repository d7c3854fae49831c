package io.okapigw.folio.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.folio.data.CirculationData;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The modules job's settings as the compose file and the scripts give them. */
class ModulesOptionsTest {

  private static ModulesOptions parse(String... args) {
    return ModulesOptions.from(ModulesOptions.SPEC.read(List.of(args)));
  }

  @Test
  void defaults_theDemosLibraryOnPort9300() {
    ModulesOptions o = parse();

    assertThat(o.host()).isEqualTo("0.0.0.0");
    assertThat(o.port()).isEqualTo(9300);
    assertThat(o.url(9301)).isEqualTo("http://localhost:9301");
    assertThat(o.data()).isEqualTo(CirculationData.Options.defaults());
    assertThat(o.callTimeout()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void documentedExamples_read() {
    ModulesOptions o =
        parse(
            "--host",
            "127.0.0.1",
            "--port",
            "9480",
            "--advertise-host",
            "modules",
            "--patrons",
            "50",
            "--items",
            "60",
            "--seed",
            "7",
            "--call-timeout",
            "500ms");

    assertThat(o.port()).isEqualTo(9480);
    assertThat(o.url(9481)).isEqualTo("http://modules:9481");
    assertThat(o.data()).isEqualTo(new CirculationData.Options(7, 50, 60));
    assertThat(o.callTimeout()).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void badValues_refusedNamingTheKey() {
    assertThatThrownBy(() -> parse("--call-timeout", "10"))
        .hasMessageStartingWith("call-timeout must be a duration");
    assertThatThrownBy(() -> parse("--port", "70000"))
        .hasMessage("port must be between 1 and 65000, was '70000'");
    assertThatThrownBy(() -> parse("--items", "many"))
        .hasMessage("items must be a whole number, was 'many'");
    assertThatThrownBy(() -> parse("--gateway", "http://x"))
        .hasMessageStartingWith("unknown setting 'gateway'");
  }
}
