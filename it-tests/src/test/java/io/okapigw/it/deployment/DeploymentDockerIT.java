package io.okapigw.it.deployment;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
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
    try (Registry registry = Registry.start(name -> docker(image, name))) {
      List<Step> steps;
      try (StandaloneGateway gateway =
          StandaloneGateway.deploying(Jars.gateway(), ports, ports + 5)) {
        try {
          steps = SingleServerSequence.run(gateway.url(), registry.url());
          System.out.println("single-server sequence, containers:\n  " + steps);
          assertThat(steps)
              .extracting(Step::status)
              .containsExactly(
                  200, 201, 201, 201, 201, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200,
                  204, 200, 200, 404);
          assertThat(containersOf(image)).as("every container removed").isZero();

          List<Step> bad = badImages(gateway.url());
          System.out.println("bad images, ours:\n  " + bad);
          assertThat(bad).extracting(Step::status).containsExactly(400, 400, 200, 200);
          assertThat(bad.get(0).answer().toString()).contains("No such image");
          assertThat(bad.get(1).answer()).isEqualTo("Missing EXPOSE in image");
          assertThat(bad.get(2).answer()).isEqualTo(List.of());
          assertThat(containersOf(image)).isZero();
          steps.addAll(bad);
        } finally {
          gateway.process().stop();
        }
      }
      Optional<ReferenceOkapi> okapi = ReferenceOkapi.v615();
      if (okapi.isEmpty()) {
        System.err.println("NOTICE: Okapi 6.1.5 not built: the side-by-side run is skipped");
        return;
      }
      List<Step> okapiSteps =
          OkapiRun.with(
              okapi.get(),
              dir,
              5,
              url -> {
                List<Step> all = SingleServerSequence.run(url, registry.url());
                all.addAll(badImages(url));
                return all;
              });
      assertThat(okapiSteps.stream().map(Step::toString))
          .as("Okapi 6.1.5's answers, its containers started through the same engine")
          .containsExactlyElementsOf(steps.stream().map(Step::toString).toList());
      assertThat(containersOf(image)).isZero();
    }
  }

  /**
   * An image the engine lacks and one without {@code EXPOSE}, not pulled ({@code dockerPull:
   * false}); then discovery and the deployments.
   */
  private static List<Step> badImages(String gateway) {
    List<Step> steps = new ArrayList<>();
    for (String image : List.of("okapigw-it/no-such-image:1", Images.baseImage())) {
      steps.add(
          SingleServerSequence.step(
              gateway,
              "POST",
              "/_/deployment/modules",
              new JsonObject()
                  .put("srvcId", "mod-x-1.0.0")
                  .put(
                      "descriptor",
                      new JsonObject().put("dockerImage", image).put("dockerPull", false))));
    }
    steps.add(SingleServerSequence.step(gateway, "GET", "/_/discovery/modules", null));
    steps.add(SingleServerSequence.step(gateway, "GET", "/_/deployment/modules", null));
    return steps;
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
