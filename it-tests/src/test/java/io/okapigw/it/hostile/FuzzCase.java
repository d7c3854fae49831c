package io.okapigw.it.hostile;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One connection's worth of fuzz: one or more requests (pipelined), to the public or the admin
 * listener, sent whole or given up midway. Made from the run's seed and its number alone, so {@code
 * -Dfuzz.seed=S -Dfuzz.case=I} makes the same bytes again.
 *
 * @param cut for the endings that give up midway, how many bytes are sent first
 * @param piece if positive, the bytes go out in writes of this size (decoder boundaries)
 */
record FuzzCase(
    long seed,
    int index,
    boolean admin,
    List<FuzzRequest> requests,
    Ending ending,
    int cut,
    int piece) {

  /** How the client ends its side. */
  enum Ending {
    /** Sends everything and reads the answers. */
    READ,
    /** Sends the first {@code cut} bytes, then resets the connection. */
    RESET_MIDWAY,
    /** Sends the first {@code cut} bytes, then closes its sending side and reads. */
    FIN_MIDWAY,
    /** Sends everything, then resets the connection at the first byte of the answer. */
    RESET_AT_ANSWER,
    /** A request smuggling shape ({@link FuzzCorpus#smuggle}), sent whole, answers read. */
    SMUGGLE
  }

  /**
   * @return case {@code index} of the run seeded {@code seed}
   */
  static FuzzCase generate(long seed, int index, FuzzCorpus corpus, String token) {
    Random r = new Random(seed * 0x9E3779B97F4A7C15L + index);
    if (r.nextInt(25) == 0) {
      return new FuzzCase(
          seed, index, false, List.of(corpus.smuggle(r, index + ".0")), Ending.SMUGGLE, 0, 0);
    }
    boolean admin = r.nextInt(10) == 0;
    int n = r.nextInt(10) == 0 ? 2 + r.nextInt(2) : 1;
    Mutator mutator = new Mutator(r, token);
    List<FuzzRequest> requests = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      String id = index + "." + j;
      FuzzRequest d = admin ? corpus.pickAdmin(r, id) : corpus.pick(r, id);
      int mutations = r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(3);
      for (int m = 0; m < mutations; m++) {
        mutator.mutate(d);
      }
      requests.add(d);
    }
    int roll = r.nextInt(100);
    Ending ending =
        roll < 5
            ? Ending.RESET_MIDWAY
            : roll < 9 ? Ending.FIN_MIDWAY : roll < 12 ? Ending.RESET_AT_ANSWER : Ending.READ;
    int length = bytes(requests).length;
    int cut = length == 0 ? 0 : r.nextInt(length);
    int piece = r.nextInt(20) == 0 && length < 8_192 ? 1 + r.nextInt(16) : 0;
    return new FuzzCase(seed, index, admin, List.copyOf(requests), ending, cut, piece);
  }

  byte[] bytes() {
    return bytes(requests);
  }

  private static byte[] bytes(List<FuzzRequest> requests) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    requests.forEach(d -> out.writeBytes(d.bytes()));
    return out.toByteArray();
  }

  /**
   * @return the request numbered {@code id} ({@code "index.j"}) of this case, or null
   */
  FuzzRequest request(String id) {
    return requests.stream().filter(d -> id.equals(d.id())).findFirst().orElse(null);
  }

  /**
   * @return how to run this case again, and its bytes, escaped
   */
  String describe() {
    return "seed "
        + seed
        + " case "
        + index
        + " (rerun: -Dfuzz.seed="
        + seed
        + " -Dfuzz.case="
        + index
        + "): "
        + (admin ? "admin" : "public")
        + " listener, "
        + ending
        + (ending == Ending.RESET_MIDWAY || ending == Ending.FIN_MIDWAY
            ? " after " + cut + " bytes"
            : "")
        + (piece > 0 ? ", in writes of " + piece + " bytes" : "")
        + ", "
        + requests.size()
        + " request(s):\n  \""
        + Escape.bytes(bytes())
        + "\"";
  }
}
