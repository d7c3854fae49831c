package io.okapigw.it.differential;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.it.Jars;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin API (and a few proxied calls) side by side with Okapi: every step of {@code
 * differential/admin-steps.txt} sent to an Okapi built from source and to our gateway, both fresh,
 * both routing to one echo module; the answers compared by status, Location, kind of body and JSON
 * (see {@link Aspect}). Fails on a difference that matters which the script does not explain, and
 * on an explanation of a difference that no longer occurs. Writes {@code
 * target/okapi-differential/okapi-VERSION.md}.
 *
 * <p>Needs {@code -Dokapi.jar} (skipped with a notice without it, so CI, which cannot build Okapi,
 * passes over it). {@code -Ddiff.gateway.jar=PATH} compares another build of ours (an older
 * commit's, to count the differences a change removed).
 */
@ExtendWith(OkapiReference.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class OkapiDifferentialTest {

  private static final String SCRIPT = "/differential/admin-steps.txt";

  @Test
  void adminApi_answersAsOkapi() throws Exception {
    Path out = Files.createDirectories(Jars.root().resolve("it-tests/target/okapi-differential"));
    Vertx vertx = Vertx.vertx();
    try (OkapiReference.Running okapi = OkapiReference.start(out.resolve("okapi.log"));
        StandaloneGateway ours = StandaloneGateway.start(gatewayJar(), List.of())) {
      EchoModule module = EchoModule.start(vertx).await(30, TimeUnit.SECONDS);
      Target okapiTarget = Target.connect(okapi.url());
      Target ourTarget = Target.connect(ours.url());
      String version = okapiTarget.version();
      List<Outcome> outcomes = new ArrayList<>();
      for (Step step : StepScript.load(SCRIPT, module.url(), version)) {
        Answer a = okapiTarget.send(step);
        Answer b = ourTarget.send(step);
        outcomes.add(new Outcome(step, a, b, Difference.between(a, b, step.ignored())));
      }
      Report report = new Report(version, outcomes);
      Path file = out.resolve("okapi-" + version + ".md");
      report.write(file);
      report.writeAnswers(out.resolve("okapi-" + version + "-answers.txt"));
      System.out.println(report.summary() + " (table: " + file + ")");
      assertThat(report.unexplained())
          .as("steps that differ from Okapi in a way that matters, unexplained (see %s)", file)
          .extracting(OkapiDifferentialTest::describe)
          .isEmpty();
      assertThat(report.stale())
          .as("explained differences that no longer occur: drop the @differs lines")
          .extracting(o -> o.step().line() + ": " + o.stale())
          .isEmpty();
    } finally {
      vertx.close().await(30, TimeUnit.SECONDS);
    }
  }

  private static Path gatewayJar() {
    String jar = System.getProperty("diff.gateway.jar");
    return jar == null || jar.isBlank() ? Jars.gateway() : Path.of(jar);
  }

  private static String describe(Outcome o) {
    return "line "
        + o.step().line()
        + " "
        + o.step().request()
        + ": "
        + o.unexplained().stream()
            .map(d -> d.aspect() + " " + d.detail())
            .collect(Collectors.joining("; "))
        + "\n    Okapi: "
        + o.okapi().brief(90)
        + "\n    ours:  "
        + o.ours().brief(90);
  }
}
