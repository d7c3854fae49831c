package io.okapigw.core.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpUtil;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerResponse;
import java.util.Locale;

/**
 * How a message's body is delimited on the wire (RFC 9112 §6): by a length, in chunks, or not at
 * all (no body; for an answer read from a module, a body that ends with its connection). The
 * gateway reads it once, from what its strict codecs parsed ({@link #of(MultiMap)}, {@link
 * #of(HttpMessage)}), and writes its own again on every message it sends ({@link #writeTo}): the
 * {@code Content-Length} and {@code Transfer-Encoding} among the headers it copies are never
 * trusted, so a header named in {@code Connection} cannot take a body's framing away, nor a copy
 * keep a framing that no longer holds.
 *
 * @param kind the framing
 * @param length the body's length, for {@link Kind#LENGTH}; else -1
 */
public record Framing(Kind kind, long length) {

  /** The ways a body is delimited. */
  public enum Kind {
    /** No body (a request); a body read until the connection closes (an answer). */
    NONE,
    /** {@code Content-Length: n}. */
    LENGTH,
    /** {@code Transfer-Encoding: chunked}. */
    CHUNKED
  }

  /** No body. */
  public static final Framing NONE = new Framing(Kind.NONE, -1);

  /** A body in chunks. */
  public static final Framing CHUNKED = new Framing(Kind.CHUNKED, -1);

  /**
   * @param length the body's length, 0 or more
   * @return a body of that length
   */
  public static Framing length(long length) {
    if (length < 0) {
      throw new IllegalArgumentException("a body's length is 0 or more: " + length);
    }
    return new Framing(Kind.LENGTH, length);
  }

  /**
   * The framing of a client's request as the gateway's strict request decoder read it: that decoder
   * refuses a request with both headers, with more than one length, or with a coding other than
   * {@code chunked} alone, so what is left is one framing, here read from the headers the decoder
   * accepted (never from a copy of them).
   *
   * @param parsed the request's headers as decoded
   * @throws HttpError 400 for a length that is not a number (which the decoder refuses first)
   */
  public static Framing of(MultiMap parsed) {
    if (parsed.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
      return CHUNKED;
    }
    String length = parsed.get(HttpHeaderNames.CONTENT_LENGTH);
    if (length == null) {
      return NONE;
    }
    return length(digits(length.trim()));
  }

  /**
   * @return the length {@code digits} (1 to 18 ASCII digits) says; read on every message, so by a
   *     loop rather than a regular expression (a pattern and a matcher allocated per request)
   * @throws HttpError 400 for anything else
   */
  private static long digits(String digits) {
    int n = digits.length();
    if (n == 0 || n > 18) {
      throw new HttpError(400, "Content-Length is not a length");
    }
    long value = 0;
    for (int i = 0; i < n; i++) {
      char c = digits.charAt(i);
      if (c < '0' || c > '9') {
        throw new HttpError(400, "Content-Length is not a length");
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  /**
   * The framing of a message as Netty's decoder read it (a module's answer): chunked wins over a
   * length, as the decoder reads it so.
   */
  public static Framing of(HttpMessage parsed) {
    if (HttpUtil.isTransferEncodingChunked(parsed)) {
      return CHUNKED;
    }
    long length = HttpUtil.getContentLength(parsed, -1L);
    return length >= 0 ? length(length) : NONE;
  }

  /**
   * The framing of the gateway's answer to a client, decided from the body it relays: none for a
   * status that has no body (1xx, 204); for an answer to a {@code HEAD} and a 304, which have none
   * either, the length a {@code GET} would get if the body has one, else none; else the body's
   * length when it is known, chunks when it is not.
   *
   * @param status the answer's status
   * @param toHead whether it answers a {@code HEAD} request
   * @param body the body's framing as read (a module's answer) or known (a body held whole)
   */
  public static Framing answer(int status, boolean toHead, Framing body) {
    if (status < 200 || status == 204) {
      return NONE;
    }
    if (toHead || status == 304) {
      return body.kind == Kind.LENGTH ? body : NONE;
    }
    return body.kind == Kind.LENGTH ? body : CHUNKED;
  }

  /**
   * The framing of the gateway's answer to a client whose body it holds whole ({@link #answer} of
   * its length); an answer to a {@code HEAD} says no length, the body held not being a {@code
   * GET}'s.
   */
  public static Framing whole(int status, boolean toHead, long length) {
    return answer(status, toHead, toHead ? NONE : length(length));
  }

  /**
   * @return whether a body of this framing may have bytes
   */
  public boolean hasBody() {
    return kind == Kind.CHUNKED || kind == Kind.LENGTH && length > 0;
  }

  /**
   * @return whether {@code total} bytes of body fit the framing
   */
  public boolean allows(long total) {
    return switch (kind) {
      case NONE -> total == 0;
      case LENGTH -> total <= length;
      case CHUNKED -> true;
    };
  }

  /**
   * @return whether a body of {@code total} bytes is complete in this framing
   */
  public boolean completeAt(long total) {
    return kind != Kind.LENGTH || total == length;
  }

  /**
   * Removes every {@code Content-Length} and {@code Transfer-Encoding} from {@code headers} and
   * writes this framing's.
   */
  public void writeTo(MultiMap headers) {
    headers.remove(HttpHeaderNames.CONTENT_LENGTH).remove(HttpHeaderNames.TRANSFER_ENCODING);
    if (kind == Kind.LENGTH) {
      headers.set(HttpHeaderNames.CONTENT_LENGTH, Long.toString(length));
    } else if (kind == Kind.CHUNKED) {
      headers.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    }
  }

  /**
   * Frames the gateway's answer to a client, its headers set but for the framing: every {@code
   * Content-Length} and {@code Transfer-Encoding} removed, this framing's written ({@link
   * HttpServerResponse#setChunked} for chunks, which an HTTP/1.0 answer leaves out: it then ends
   * with its connection).
   */
  public void writeTo(HttpServerResponse out) {
    out.headers().remove(HttpHeaderNames.CONTENT_LENGTH).remove(HttpHeaderNames.TRANSFER_ENCODING);
    if (kind == Kind.LENGTH) {
      out.putHeader(HttpHeaderNames.CONTENT_LENGTH, Long.toString(length));
    } else if (kind == Kind.CHUNKED) {
      out.setChunked(true);
    }
  }

  @Override
  public String toString() {
    return kind == Kind.LENGTH ? "length " + length : kind.name().toLowerCase(Locale.ROOT);
  }
}
