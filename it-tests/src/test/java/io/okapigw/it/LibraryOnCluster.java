package io.okapigw.it;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.testsupport.process.GatewayCluster;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The demo library (authtoken module and simulated modules, in this JVM) registered on a cluster of
 * gateway JVMs, for tests that run the check-out workload across nodes. Closed in reverse.
 */
public final class LibraryOnCluster implements AutoCloseable {

  private final Vertx vertx = Vertx.vertx();
  private GatewayCluster cluster;
  private Library library;

  private LibraryOnCluster() {}

  /**
   * @param gatewayArgs more settings for every node
   * @param size patrons and items of the library
   * @param dir where the library keeps its data
   */
  public static LibraryOnCluster start(int nodes, List<String> gatewayArgs, int size, Path dir)
      throws Exception {
    LibraryOnCluster started = new LibraryOnCluster();
    try {
      started.cluster = GatewayCluster.start(Jars.gateway(), nodes, gatewayArgs);
      started.library =
          Library.start(
                  started.vertx,
                  new DemoOptions(0, size, size, true, true, dir),
                  started.cluster.url(0))
              .await(2, TimeUnit.MINUTES);
      return started;
    } catch (Exception | Error e) {
      started.close();
      throw e;
    }
  }

  public Vertx vertx() {
    return vertx;
  }

  public GatewayCluster cluster() {
    return cluster;
  }

  public Library library() {
    return library;
  }

  @Override
  public void close() throws Exception {
    if (library != null) {
      library.close().await(1, TimeUnit.MINUTES);
    }
    if (cluster != null) {
      cluster.close();
    }
    vertx.close().await(1, TimeUnit.MINUTES);
  }
}
