package io.okapigw.authtoken.store.json;

import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.UserRecord;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;

/**
 * Child process of {@link JsonStoreKillTest}: opens the JSON store in the given directory and
 * inserts users forever, {@value #IN_FLIGHT} at a time, printing {@code ACK <id>} as soon as each
 * insert is acknowledged. The test kills it with SIGKILL.
 */
public final class JsonStoreWriter {
  static final int IN_FLIGHT = 16;
  static final String TENANT = "killed";

  private JsonStoreWriter() {}

  /**
   * @param args the store directory
   */
  public static void main(String[] args) {
    Vertx vertx = Vertx.vertx();
    AuthStore store = JsonAuthStore.open(vertx, Path.of(args[0])).await();
    System.out.println("OPEN");
    System.out.flush();
    for (int i = 0; i < IN_FLIGHT; i++) {
      insert(store, i);
    }
  }

  private static void insert(AuthStore store, int n) {
    String id = "u" + n;
    store
        .insertUser(new UserRecord(TENANT, id, "user" + n, true, null, List.of("p." + n)))
        .onSuccess(
            v -> {
              System.out.println("ACK " + id);
              System.out.flush();
              insert(store, n + IN_FLIGHT);
            })
        .onFailure(
            e -> {
              System.out.println("FAIL " + e);
              System.exit(3);
            });
  }
}
