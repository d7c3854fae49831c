package io.okapigw.it;

import io.okapigw.folio.register.AuthtokenDescriptor;
import io.okapigw.testsupport.Descriptors;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What the fault tests stand on: tenant {@code diku} with the authtoken module and a module whose
 * {@code GET /guarded} needs {@code guarded.get}, and the authtoken module's fat jar in a JVM of
 * its own (which a test can freeze, kill, or leave without its database), alice ({@code
 * alice}/{@code alice}) holding that permission.
 */
final class GuardedTenant {

  /** The user the tests log in as, holding {@code guarded.get}. */
  static final String BOOTSTRAP = "diku:alice:alice:guarded.get";

  private GuardedTenant() {}

  /**
   * The authtoken module's JVM and its base URL.
   *
   * @param process the JVM, to freeze or kill
   * @param url {@code http://127.0.0.1:PORT}
   */
  record Authtoken(JavaProcess process, String url) {}

  /**
   * @return a server answering every request {@code guarded}, on a free port of 127.0.0.1
   */
  static HttpServer guardedModule(Vertx vertx) {
    return vertx
        .createHttpServer()
        .requestHandler(req -> req.response().end("guarded"))
        .listen(0, "127.0.0.1")
        .await();
  }

  /**
   * Starts the authtoken module's fat jar on a free port and waits until it answers.
   *
   * @param store {@code json:DIR} or a PostgreSQL URI
   * @param dir where its signing key goes
   * @param gatewayUrl its {@code gateway-url}
   */
  static Authtoken startAuthtoken(String store, Path dir, String gatewayUrl) throws IOException {
    int port = FreePorts.belowEphemeralRange();
    JavaProcess authtoken =
        JavaProcess.launch(
            Jars.authtoken(),
            List.of("-Xmx256m"),
            List.of(
                "--port",
                Integer.toString(port),
                "--host",
                "127.0.0.1",
                "--store",
                store,
                "--signing-key-file",
                dir.resolve("signing.key").toString(),
                "--password-hash-iterations",
                "1000",
                "--bootstrap",
                BOOTSTRAP,
                "--gateway-url",
                gatewayUrl));
    String url = "http://127.0.0.1:" + port;
    authtoken.awaitReady(url + "/admin/health", JavaProcess.PATIENCE);
    return new Authtoken(authtoken, url);
  }

  /**
   * Creates tenant {@code diku} with the authtoken module and the guarded module enabled.
   *
   * @param admin the admin API
   * @param authtokenUrl the authtoken module
   * @param guarded the guarded module
   */
  static void install(AdminCalls admin, String authtokenUrl, HttpServer guarded) {
    admin.createTenant("diku");
    admin.register(AuthtokenDescriptor.read(), authtokenUrl);
    admin.register(
        Descriptors.module(
            "mod-guarded-1.0.0", "guarded", Descriptors.handler("GET", "/guarded", "guarded.get")),
        "http://127.0.0.1:" + guarded.actualPort());
    admin.enable("diku", "mod-authtoken-1.0.0");
    admin.enable("diku", "mod-guarded-1.0.0");
  }
}
