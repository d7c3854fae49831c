package io.okapigw.core.server;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpVersion;
import io.okapigw.core.http.Framing;
import io.okapigw.core.http.HttpError;
import io.vertx.core.http.impl.headers.HeadersMultiMap;

/**
 * The framing of one answer on a client connection ({@link ServerResponse}), decided once, as its
 * head is written, and the body written after it held to it: the {@code Content-Length} the handler
 * set, else the length of a body ended whole, else chunks (HTTP/1.1) or the connection's end
 * (HTTP/1.0, which has no chunks: the connection then closes after the answer, whatever keep-alive
 * the client asked for). A body of more bytes than the length is cut there and the connection
 * closed; one that ends short of it too: never an answer the client would read another way, nor the
 * next answer read as the rest of this one. An answer that has no body (to a {@code HEAD}, a 1xx,
 * 204 or 304) keeps a length it was given, and Netty's encoder writes no body for it.
 */
final class AnswerFraming {

  private final Framing framing;
  private final boolean bodyless;
  private final boolean untilClose;
  private long written;

  private AnswerFraming(Framing framing, boolean bodyless, boolean untilClose) {
    this.framing = framing;
    this.bodyless = bodyless;
    this.untilClose = untilClose;
  }

  /**
   * Decides the answer's framing and writes it to {@code headers}.
   *
   * @param endedWith the length of a body ended whole before the head was written; -1 for a body
   *     still to come
   */
  static AnswerFraming decide(
      HttpVersion version, int status, boolean toHead, HeadersMultiMap headers, long endedWith) {
    Framing set = set(headers);
    boolean bodyless = toHead || status < 200 || status == 204 || status == 304;
    if (bodyless) {
      Framing kept =
          set.kind() == Framing.Kind.LENGTH && status != 204 && status >= 200 ? set : Framing.NONE;
      kept.writeTo(headers);
      return new AnswerFraming(kept, true, false);
    }
    Framing framing;
    if (set.kind() == Framing.Kind.LENGTH) {
      framing = set;
    } else if (set.kind() == Framing.Kind.CHUNKED && version == HttpVersion.HTTP_1_1) {
      framing = Framing.CHUNKED;
    } else if (endedWith >= 0) {
      framing = Framing.length(endedWith);
    } else if (version == HttpVersion.HTTP_1_1) {
      framing = Framing.CHUNKED;
    } else {
      framing = Framing.NONE;
    }
    framing.writeTo(headers);
    return new AnswerFraming(framing, false, framing == Framing.NONE);
  }

  /** The framing the handler set in the headers; none for none, or a length that is not one. */
  private static Framing set(HeadersMultiMap headers) {
    try {
      return Framing.of(headers);
    } catch (HttpError e) {
      headers.remove(HttpHeaderNames.CONTENT_LENGTH);
      return Framing.NONE;
    }
  }

  /**
   * @return whether the answer ends with its connection (HTTP/1.0, a length not known in advance)
   */
  boolean untilClose() {
    return untilClose;
  }

  /**
   * Counts {@code n} more bytes of body.
   *
   * @return whether they fit the framing; if not, they must not be written, and the connection must
   *     close
   */
  boolean fits(long n) {
    written += n;
    return bodyless || untilClose || framing.allows(written);
  }

  /**
   * @return whether the body written is the whole body the framing announced
   */
  boolean complete() {
    return bodyless || untilClose || framing.completeAt(written);
  }
}
