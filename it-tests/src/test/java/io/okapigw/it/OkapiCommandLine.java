package io.okapigw.it;

import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An Okapi deployment's command line, as an operator writes it: Okapi's keys as {@code -D} system
 * properties ({@code java -Dstorage=postgres -Dpostgres_host=... -jar okapi-core-fat.jar dev}) or
 * the same keys in a {@code -conf} JSON file ({@code java -jar okapi-core-fat.jar dev -conf
 * okapi.json}, numbers written as numbers). The same line starts Okapi's fat jar and the gateway's:
 * only the jar differs.
 *
 * @param keys Okapi's keys and their values, in the order written
 * @param inConf whether the keys go into a {@code -conf} file (else {@code -D} properties)
 * @param command {@code dev}, {@code initdatabase}, ...
 */
record OkapiCommandLine(Map<String, String> keys, boolean inConf, String command) {

  /**
   * A {@code dev} node on PostgreSQL: {@code port}, {@code okapiurl}, {@code storage=postgres}, the
   * {@code postgres_*} keys of the database, {@code loglevel=WARN}.
   *
   * @param database {@code postgresql://user:pass@host:port/db}
   */
  static OkapiCommandLine dev(String database, int port) {
    PgConnectOptions pg = PgConnectOptions.fromUri(database);
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("port", String.valueOf(port));
    keys.put("okapiurl", "http://127.0.0.1:" + port);
    keys.put("storage", "postgres");
    keys.put("postgres_host", pg.getHost());
    keys.put("postgres_port", String.valueOf(pg.getPort()));
    keys.put("postgres_username", pg.getUser());
    keys.put("postgres_password", pg.getPassword());
    keys.put("postgres_database", pg.getDatabase());
    keys.put("loglevel", "WARN");
    return new OkapiCommandLine(keys, false, "dev");
  }

  /**
   * @return this line with one more key (or another value)
   */
  OkapiCommandLine with(String key, String value) {
    Map<String, String> more = new LinkedHashMap<>(keys);
    more.put(key, value);
    return new OkapiCommandLine(more, inConf, command);
  }

  /**
   * @return this line with its keys in a {@code -conf} file instead of {@code -D} properties
   */
  OkapiCommandLine inConfFile() {
    return new OkapiCommandLine(keys, true, command);
  }

  /**
   * @return this line running another command
   */
  OkapiCommandLine command(String other) {
    return new OkapiCommandLine(keys, inConf, other);
  }

  /**
   * @return the node's URL on this machine (its {@code port})
   */
  String url() {
    return "http://127.0.0.1:" + keys.get("port");
  }

  /**
   * @return how the keys are given: {@code -D} or {@code -conf}
   */
  String form() {
    return inConf ? "-conf okapi.json" : "-D";
  }

  /**
   * Runs the line with a fat jar: {@code java -Xmx.. [-Dkey=value ...] -jar JAR COMMAND [-conf
   * FILE]}, the file written into {@code dir} first.
   */
  JavaProcess launch(Path java, Path jar, Path dir) throws IOException {
    List<String> jvm = new ArrayList<>(List.of("-Xmx384m"));
    List<String> args = new ArrayList<>(List.of(command));
    if (inConf) {
      JsonObject conf = new JsonObject();
      keys.forEach(
          (key, value) ->
              conf.put(key, value.matches("\\d{1,9}") ? Integer.valueOf(value) : value));
      Path file = Files.createDirectories(dir).resolve("okapi.json");
      Files.writeString(file, conf.encodePrettily());
      args.addAll(List.of("-conf", file.toString()));
    } else {
      keys.forEach((key, value) -> jvm.add("-D" + key + "=" + value));
    }
    return JavaProcess.launch(java, jar, jvm, args);
  }

  /**
   * @return the line as an operator would type it (the password shown as {@code ...})
   */
  String shown(String jar) {
    StringBuilder line = new StringBuilder("java");
    JsonObject shownKeys = new JsonObject();
    keys.forEach((key, value) -> shownKeys.put(key, key.endsWith("password") ? "..." : value));
    if (!inConf) {
      shownKeys.forEach(
          e -> line.append(" -D").append(e.getKey()).append('=').append(e.getValue()));
    }
    line.append(" -jar ").append(jar).append(' ').append(command);
    if (inConf) {
      line.append(" -conf okapi.json ").append(shownKeys.encode());
    }
    return line.toString();
  }
}
