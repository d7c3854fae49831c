package io.okapigw.perf.load;

import static io.okapigw.perf.load.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.users.Bootstrap;
import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.DemoStack;
import io.okapigw.folio.data.Librarian;
import io.okapigw.folio.module.CallCounts;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workload at FOLIO's auth cost: a demo stack, cache off, whose authtoken module runs with
 * {@code --user-lookup gateway}, so every auth call with a user looks the librarian up in the
 * simulated mod-users and mod-permissions through the gateway.
 */
class UserLookupWorkloadTest {

  @TempDir static Path dataDir;

  private static Vertx vertx;
  private static DemoStack stack;

  @BeforeAll
  static void startStack() throws Exception {
    vertx = Vertx.vertx();
    stack = await(DemoStack.start(vertx, new DemoOptions(0, 20, 20, true, false, dataDir, true)));
  }

  @AfterAll
  static void stopStack() throws Exception {
    await(stack.close().compose(v -> vertx.close()));
  }

  @Test
  void librarian_hasTheIdTheAuthtokenBootstrapGivesDikuAdmin() {
    assertThat(Librarian.DEMO.id())
        .isEqualTo(Bootstrap.idOf(DemoOptions.TENANT, DemoOptions.ADMIN));
    assertThat(Librarian.DEMO.username()).isEqualTo(DemoOptions.ADMIN);
  }

  @Test
  void checkOutAndIn_eachAuthCallLooksTheUserUpThroughTheGateway() throws Exception {
    CallCounts users = stack.modules().deployment("mod-users").served();
    CallCounts perms = stack.modules().deployment("mod-permissions").served();
    long userLookupsBefore = users.count("GET /users/{id}");
    long permLookupsBefore = perms.count("GET /perms/users/{id}/permissions");
    LoadPlan plan =
        new LoadPlan(
            List.of(URI.create(stack.gatewayUrl())),
            DemoOptions.TENANT,
            DemoOptions.ADMIN,
            DemoOptions.ADMIN_PASSWORD,
            2,
            Duration.ZERO,
            Duration.ZERO,
            2,
            100);

    RunReport report =
        await(LoadDriver.run(vertx, plan, BarcodeRows.of(stack.data()), "cache off, user lookup"));

    assertThat(report.errors()).as("errors: %s", report.firstErrors()).isZero();
    assertThat(report.probe().checkOuts()).as("2 users, 2 probe rounds").isEqualTo(4);
    assertThat(report.probe().checkIns()).isEqualTo(4);
    // 34 auth calls with the user per check-out (the client's and 33 module calls), each
    // looking up three times through the gateway, each lookup an auth call of its own
    assertThat(report.probe().perCheckOut()).isEqualTo(34 * 4);
    assertThat(report.probe().perCheckIn()).isEqualTo(22 * 4);
    long checkOuts = report.checkOut().count() + report.probe().checkOuts();
    long checkIns = report.checkIn().count() + report.probe().checkIns();
    assertThat(perms.count("GET /perms/users/{id}/permissions") - permLookupsBefore)
        .as("one permission lookup per auth call with the user")
        .isEqualTo(34 * checkOuts + 22 * checkIns);
    assertThat(users.count("GET /users/{id}") - userLookupsBefore)
        .as("one user lookup per auth call with the user, besides circulation's own")
        .isGreaterThanOrEqualTo(34 * checkOuts + 22 * checkIns);
  }
}
