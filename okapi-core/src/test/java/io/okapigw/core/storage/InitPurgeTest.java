package io.okapigw.core.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.testsupport.TestPostgres;
import io.vertx.core.Vertx;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Okapi's {@code initdatabase} and {@code purgedatabase} on the tables, as Okapi 6.1.5 runs them
 * (checked side by side: both drop Okapi's five tables and create them again, empty), and what they
 * do to this gateway's tables; and a database whose {@code modules} is another program's table is
 * refused, untouched.
 */
class InitPurgeTest {

  private static final List<String> OKAPI =
      List.of("modules", "tenants", "deployments", "env", "timers");
  private static final List<String> OURS =
      List.of("okapigw_originals", "okapigw_enable_order", "okapigw_install_jobs");

  private Vertx vertx;
  private String db;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    db = TestPostgres.get().createDatabase();
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  private void okapiDatabaseWithAnEarlierLayoutLeftOver() {
    try (RawDatabase okapi = RawDatabase.connect(vertx, db)) {
      okapi.loadOkapiRows("/storage/okapi-6.1.5-rows.json", null);
      okapi.sql("CREATE TABLE okapigw_v1_modules (id text)");
      okapi.sql("CREATE TABLE authtoken_users (id text)");
      okapi.sql("INSERT INTO authtoken_users VALUES ('someone')");
    }
    Storage.open(vertx, StorageOptions.of(db)).compose(Storage::close).await();
  }

  private long count(RawDatabase raw, String table) {
    return raw.sql("SELECT count(*) FROM " + table).iterator().next().getLong(0);
  }

  private boolean triggerFunction(RawDatabase raw) {
    return raw.sql("SELECT count(*) FROM pg_proc WHERE proname = 'okapigw_one_writer'")
            .iterator()
            .next()
            .getLong(0)
        == 1;
  }

  @Test
  void init_emptiesOkapisTablesAndOurs_keepsOtherPrograms() {
    okapiDatabaseWithAnEarlierLayoutLeftOver();
    Storage.init(vertx, StorageOptions.of(db)).await();
    try (RawDatabase raw = RawDatabase.connect(vertx, db)) {
      for (String table : OKAPI) {
        assertThat(count(raw, table)).as(table).isZero();
      }
      for (String table : OURS) {
        assertThat(count(raw, table)).as(table).isZero();
      }
      assertThat(raw.exists("okapigw_v1_modules")).isFalse();
      assertThat(triggerFunction(raw)).isTrue();
      assertThat(count(raw, "authtoken_users")).isEqualTo(1);
    }
  }

  @Test
  void purge_leavesOkapisTablesEmpty_andNothingOfOurs() {
    okapiDatabaseWithAnEarlierLayoutLeftOver();
    Storage.purge(vertx, StorageOptions.of(db)).await();
    try (RawDatabase raw = RawDatabase.connect(vertx, db)) {
      for (String table : OKAPI) {
        assertThat(count(raw, table)).as(table).isZero();
      }
      for (String table : OURS) {
        assertThat(raw.exists(table)).as(table).isFalse();
      }
      assertThat(raw.exists("okapigw_v1_modules")).isFalse();
      assertThat(triggerFunction(raw)).isFalse();
      assertThat(count(raw, "authtoken_users")).isEqualTo(1);
      raw.sql("INSERT INTO modules VALUES ('{\"id\":\"m-1.0.0\"}'::jsonb)");
    }
  }

  @Test
  void anotherProgramsModulesTable_refused_untouched() {
    try (RawDatabase other = RawDatabase.connect(vertx, db)) {
      other.sql("CREATE TABLE modules (name text, size int)");
      assertThatThrownBy(() -> Storage.open(vertx, StorageOptions.of(db)).await())
          .hasMessageContaining("a table modules that is not Okapi's (no JSONB column modulejson");
      assertThat(other.exists("tenants")).isFalse();
      assertThat(other.exists("okapigw_originals")).isFalse();
    }
  }
}
