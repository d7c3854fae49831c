package io.okapigw.core.server;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.vertx.core.http.impl.headers.HeadersMultiMap;

/**
 * Netty's response encoder as a client connection needs it: headers written straight from Vert.x's
 * {@link HeadersMultiMap} (no copy, no iteration of entries), and the answer to a {@code HEAD}
 * written without a body whatever its headers announce (the encoder does not know the request).
 */
final class ResponseEncoder extends HttpResponseEncoder {

  /** The head of an answer to a {@code HEAD} request. */
  private static final class HeadAnswer extends DefaultHttpResponse {
    HeadAnswer(HttpVersion version, HttpResponseStatus status, HttpHeaders headers) {
      super(version, status, headers);
    }
  }

  /**
   * @param toHead whether it answers a {@code HEAD} request (no body follows, whatever the headers)
   * @return a response head to write
   */
  static HttpResponse head(
      HttpVersion version, HttpResponseStatus status, HeadersMultiMap headers, boolean toHead) {
    return toHead
        ? new HeadAnswer(version, status, headers)
        : new DefaultHttpResponse(version, status, headers);
  }

  @Override
  protected void encodeHeaders(HttpHeaders headers, ByteBuf buf) {
    if (headers instanceof HeadersMultiMap vertx) {
      vertx.encode(buf, false);
    } else {
      super.encodeHeaders(headers, buf);
    }
  }

  @Override
  protected boolean isContentAlwaysEmpty(HttpResponse msg) {
    return msg instanceof HeadAnswer || super.isContentAlwaysEmpty(msg);
  }
}
