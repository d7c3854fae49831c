package io.okapigw.core.pull;

import io.okapigw.config.Sizes;
import io.okapigw.core.http.HttpError;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/**
 * A remote registry's answer, read off the event loop within bounds: decoded ({@code gzip}, {@code
 * deflate}) no further than the pull's limit, however small it was on the wire, and split into its
 * descriptors, each no larger than an admin request body, before any is parsed.
 */
final class PulledAnswer {

  private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"\\\\]{1,200})\"");
  private static final int ID_WINDOW = 4096;

  private PulledAnswer() {}

  /**
   * @param encoding the answer's {@code Content-Encoding} (null: none)
   * @param max how many decoded bytes are read at most
   * @return the decoded body; 502 naming the limit if it decodes to more than {@code max}
   */
  static Buffer decode(String base, String encoding, Buffer raw, long max) {
    String coding = encoding == null ? "identity" : encoding.trim().toLowerCase(Locale.ROOT);
    if (coding.isEmpty() || coding.equals("identity")) {
      return raw;
    }
    try (InputStream in = decoder(base, coding, raw)) {
      Buffer decoded = Buffer.buffer();
      byte[] piece = new byte[64 * 1024];
      for (int n = in.read(piece); n >= 0; n = in.read(piece)) {
        if (decoded.length() + (long) n > max) {
          throw tooLarge(base, max);
        }
        decoded.appendBytes(piece, 0, n);
      }
      return decoded;
    } catch (IOException e) {
      throw HttpError.badGateway("pull from " + base + ": " + coding + " answer does not decode");
    }
  }

  private static InputStream decoder(String base, String coding, Buffer raw) throws IOException {
    InputStream bytes = new ByteArrayInputStream(raw.getBytes());
    return switch (coding) {
      case "gzip", "x-gzip" -> new GZIPInputStream(bytes);
      case "deflate" -> new InflaterInputStream(bytes);
      default ->
          throw HttpError.badGateway(
              "pull from " + base + ": unsupported Content-Encoding " + coding);
    };
  }

  /** 502: the remote's answer is larger than {@code admin.pull-max-bytes}. */
  static HttpError tooLarge(String base, long max) {
    return HttpError.badGateway(
        "pull from "
            + base
            + ": answer larger than admin.pull-max-bytes, "
            + Sizes.format(max)
            + " ("
            + max
            + " bytes); nothing added");
  }

  /**
   * @param maxEach the largest descriptor accepted (an admin request body's limit)
   * @return the descriptors of a JSON array of objects; 400 if the body is not one, or naming a
   *     descriptor larger than {@code maxEach}
   */
  static List<JsonObject> descriptors(String base, Buffer json, long maxEach) {
    List<JsonObject> all = new ArrayList<>();
    byte[] b = json.getBytes();
    int i = skipSpace(b, 0);
    if (i == b.length || b[i] != '[') {
      throw notOkapi(base);
    }
    i = skipSpace(b, i + 1);
    if (i < b.length && b[i] == ']') {
      return end(base, b, i, all);
    }
    while (true) {
      if (i == b.length || b[i] != '{') {
        throw notOkapi(base);
      }
      int last = objectEnd(base, b, i, maxEach, all.size());
      all.add(parse(base, json.slice(i, last + 1)));
      i = skipSpace(b, last + 1);
      if (i < b.length && b[i] == ']') {
        return end(base, b, i, all);
      }
      if (i == b.length || b[i] != ',') {
        throw notOkapi(base);
      }
      i = skipSpace(b, i + 1);
    }
  }

  private static List<JsonObject> end(String base, byte[] b, int close, List<JsonObject> all) {
    if (skipSpace(b, close + 1) != b.length) {
      throw notOkapi(base);
    }
    return all;
  }

  /** The index of the {@code }} closing the object at {@code start}, within {@code maxEach}. */
  private static int objectEnd(String base, byte[] b, int start, long maxEach, int index) {
    int depth = 0;
    boolean string = false;
    for (int i = start; i < b.length; i++) {
      if (i - start >= maxEach) {
        throw tooLargeDescriptor(base, b, start, maxEach, index);
      }
      byte c = b[i];
      if (string) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          string = false;
        }
      } else if (c == '"') {
        string = true;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return i;
      }
    }
    throw notOkapi(base);
  }

  private static JsonObject parse(String base, Buffer object) {
    try {
      return new JsonObject(object);
    } catch (DecodeException e) {
      throw notOkapi(base);
    }
  }

  private static int skipSpace(byte[] b, int from) {
    int i = from;
    while (i < b.length && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
      i++;
    }
    return i;
  }

  private static HttpError tooLargeDescriptor(
      String base, byte[] b, int start, long maxEach, int index) {
    String head =
        new String(b, start, Math.min(ID_WINDOW, b.length - start), StandardCharsets.UTF_8);
    Matcher id = ID.matcher(head);
    String which = id.find() ? id.group(1) : "number " + (index + 1);
    return HttpError.badRequest(
        "pull from "
            + base
            + ": descriptor "
            + which
            + " larger than "
            + Sizes.format(maxEach)
            + " ("
            + maxEach
            + " bytes), the limit of an admin request body; nothing added");
  }

  static HttpError notOkapi(String base) {
    return HttpError.badRequest(
        "pull from "
            + base
            + ": /_/proxy/modules did not answer a JSON array of module descriptors"
            + " (not an Okapi?)");
  }
}
