package io.okapigw.it.deployment;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.github.dockerjava.api.DockerClient;
import io.okapigw.it.Jars;
import io.okapigw.it.ReferenceOkapi;
import io.okapigw.it.containers.DockerCheck;
import io.okapigw.it.containers.Images;
import io.okapigw.it.deployment.SingleServerSequence.Step;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

/**
 * FOLIO's single-server path with modules the gateway starts as Docker containers, through the
 * Docker Engine API on its socket: the modules image (the simulated FOLIO modules, built from
 * {@code docker/modules.Dockerfile}) run one module a container ({@code dockerCMD}), pulled from a
 * local registry, deployed by {@code install?deploy=true}, their {@code _tenant} jobs run, a call
 * served, containers removed on undeploy; an image the engine lacks and one without {@code EXPOSE}
 * refused with nothing left. Runs where Docker runs ({@link DockerCheck}).
 */
@ExtendWith(DockerCheck.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DeploymentDockerIT {

  @TempDir Path dir;

  @Test
  void singleServer_containers() throws Exception {
    String image = Images.modules().get();
    int ports = FreePorts.belowEphemeralRange();
    try (Registry registry = Registry.start(name -> docker(image, name));
        StandaloneGateway gateway =
            StandaloneGateway.start(
                Jars.gateway(),
                List.of(
                    "--deploy.port-start",
                    Integer.toString(ports),
                    "--deploy.port-end",
                    Integer.toString(ports + 5)))) {
      List<Step> steps;
      try {
        steps = SingleServerSequence.run(gateway.url(), registry.url());
        System.out.println("single-server sequence, containers:\n  " + steps);
        assertThat(steps)
            .extracting(Step::status)
            .containsExactly(
                201, 201, 200, 200, 201, 200, 200, 200, 200, 200, 200, 200, 204, 200, 200, 404);
        assertThat(containersOf(image)).as("every container removed").isZero();

        badImages(gateway.url());
        assertThat(containersOf(image)).isZero();
      } finally {
        gateway.process().stop();
      }
      Optional<ReferenceOkapi> okapi = ReferenceOkapi.v615();
      if (okapi.isEmpty()) {
        System.err.println("NOTICE: Okapi 6.1.5 not built: the side-by-side run is skipped");
        return;
      }
      List<Step> okapiSteps = OkapiRun.sequence(okapi.get(), registry.url(), dir);
      assertThat(okapiSteps.stream().map(Step::toString))
          .as("Okapi 6.1.5's answers, its containers started through the same engine")
          .containsExactlyElementsOf(steps.stream().map(Step::toString).toList());
      assertThat(containersOf(image)).isZero();
    }
  }

  private static void badImages(String gateway) {
    given()
        .baseUri(gateway)
        .body(
            new JsonObject()
                .put("srvcId", "mod-x-1.0.0")
                .put(
                    "descriptor",
                    new JsonObject()
                        .put("dockerImage", "okapigw-it/no-such-image:1")
                        .put("dockerPull", false))
                .encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(400)
        .body(containsString("No such image"));
    given()
        .baseUri(gateway)
        .body(
            new JsonObject()
                .put("srvcId", "mod-x-1.0.0")
                .put(
                    "descriptor",
                    new JsonObject()
                        .put("dockerImage", Images.baseImage())
                        .put("dockerPull", false))
                .encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(400)
        .body(equalTo("Missing EXPOSE in image"));
    given().baseUri(gateway).get("/_/discovery/modules").then().body("size()", equalTo(0));
  }

  /** The launch descriptor of a module in the modules image: its first EXPOSEd port, 9300. */
  private static JsonObject docker(String image, String name) {
    return new JsonObject()
        .put("dockerImage", image)
        .put("dockerPull", false)
        .put(
            "dockerCMD",
            new JsonArray(
                List.of(
                    "module",
                    "--name",
                    name,
                    "--port",
                    "9300",
                    "--patrons",
                    Integer.toString(Registry.LIBRARY.patrons()),
                    "--items",
                    Integer.toString(Registry.LIBRARY.items()))))
        .put("waitIterations", 30);
  }

  private static long containersOf(String image) {
    DockerClient docker = DockerClientFactory.instance().client();
    return docker.listContainersCmd().withShowAll(true).exec().stream()
        .filter(c -> image.equals(c.getImage()))
        .count();
  }
}
