package io.okapigw.core.upstream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.okapigw.core.http.FailureLog;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.impl.HttpClientConnectionInternal;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;

/**
 * Netty's HTTP/1.1 client codec as Vert.x puts it on a module connection, made to read nothing from
 * a connection but the answers to the requests sent on it (RFC 9112 §6.3: a client "MUST NOT
 * process, cache, or forward such extra data as a separate response"). Netty keeps the bytes that
 * follow an answer's declared end (a {@code Content-Length} one short, a byte after a chunked
 * body's end, a second answer nobody asked for) and reads them as the start of the next answer: on
 * a pooled connection, the answer to the next request sent there, another tenant's. Here:
 *
 * <ul>
 *   <li>bytes after the end of an answer, with no other request waiting for one, are dropped, and
 *       the answer ends with {@code Connection: close} in its head, which Vert.x reads at the
 *       answer's end: it closes the connection instead of putting it back in the pool (the answer
 *       itself is relayed as its head framed it, as RFC 9112 lets a client do);
 *   <li>bytes that come while no request waits for an answer (an idle pooled connection) are
 *       dropped and the connection closed;
 *   <li>from then on every byte the connection brings is dropped.
 * </ul>
 *
 * What Netty refuses itself (two lengths, both framings, a bad chunk) fails the answer, and Vert.x
 * closes its connection. Installed on every pooled module connection by {@link #install}, in place
 * of Vert.x's {@code codec} handler (the name Vert.x removes it by); the only other thing Netty's
 * client codec does for the gateway, reading the answer to a {@code HEAD} without a body, is done
 * here too. The gateway sends no {@code CONNECT} and asks for no upgrade, which Netty's codec also
 * handles. Confined to the connection's event loop.
 */
final class StrictClientCodec
    extends CombinedChannelDuplexHandler<StrictClientCodec.Decoder, StrictClientCodec.Encoder> {

  /** Vert.x's name for its HTTP/1.1 client codec in a connection's pipeline. */
  static final String NAME = "codec";

  /** The methods of the requests sent whose answers have not ended, oldest first. */
  private final Queue<HttpMethod> waiting = new ArrayDeque<>();

  private final FailureLog log;

  private StrictClientCodec(HttpDecoderConfig config, FailureLog log) {
    this.log = log;
    init(new Decoder(config), new Encoder());
  }

  /**
   * Puts this codec in place of Vert.x's on a module connection just made (before any request is
   * sent on it); a connection it cannot go on is closed.
   *
   * @param options the options the connection's client was made with (the decoder's limits)
   * @param log where a connection closed for its framing is told, as an upstream failure
   */
  static void install(HttpConnection connection, HttpClientOptions options, FailureLog log) {
    try {
      if (!(connection instanceof HttpClientConnectionInternal internal)) {
        throw new IllegalStateException(
            "not a Vert.x HTTP/1.1 client connection: " + connection.getClass().getName());
      }
      internal
          .channelHandlerContext()
          .pipeline()
          .replace(NAME, NAME, new StrictClientCodec(config(options), log));
    } catch (RuntimeException e) {
      // never pool a connection read by a codec that takes bytes nobody asked for as an answer
      log.log(
          FailureLog.Kind.INTERNAL, "cannot install the strict module connection codec: " + e, e);
      connection.close();
    }
  }

  /** The decoder's limits, as Vert.x gives them to Netty's client codec. */
  private static HttpDecoderConfig config(HttpClientOptions options) {
    return new HttpDecoderConfig()
        .setMaxInitialLineLength(options.getMaxInitialLineLength())
        .setMaxHeaderSize(options.getMaxHeaderSize())
        .setMaxChunkSize(options.getMaxChunkSize())
        .setInitialBufferSize(options.getDecoderInitialBufferSize());
  }

  /** Learns the method of every request sent, so that the answers can be told apart. */
  final class Encoder extends HttpRequestEncoder {
    @Override
    protected void encode(ChannelHandlerContext ctx, Object msg, List<Object> out)
        throws Exception {
      if (msg instanceof HttpRequest request) {
        waiting.add(request.method());
      }
      super.encode(ctx, msg, out);
    }
  }

  /** Reads the answers to the requests sent, and nothing else. */
  final class Decoder extends HttpResponseDecoder {

    /** The head of the answer being read; null between answers. */
    private HttpResponse answer;

    private boolean broken;

    Decoder(HttpDecoderConfig config) {
      super(config);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out)
        throws Exception {
      if (broken) {
        in.skipBytes(in.readableBytes());
        return;
      }
      if (answer == null && waiting.isEmpty()) {
        broken(ctx, in, "bytes came while no request was waiting for an answer");
        ctx.close();
        return;
      }
      int decoded = out.size();
      super.decode(ctx, in, out);
      for (int i = decoded; i < out.size(); i++) {
        read(ctx, in, (HttpObject) out.get(i));
      }
    }

    private void read(ChannelHandlerContext ctx, ByteBuf in, HttpObject object) {
      if (object.decoderResult().isFailure()) {
        // Netty drops the rest itself and Vert.x closes the connection
        broken = true;
        return;
      }
      if (object instanceof HttpResponse head) {
        answer = head;
      }
      if (!(object instanceof LastHttpContent) || answer == null) {
        return;
      }
      HttpResponse ended = answer;
      answer = null;
      if (interim(ended)) {
        return;
      }
      waiting.poll();
      if (waiting.isEmpty() && in.isReadable()) {
        ended.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        broken(ctx, in, "bytes came after the end of an answer its head framed");
      }
    }

    private void broken(ChannelHandlerContext ctx, ByteBuf in, String what) {
      log.log(
          FailureLog.Kind.UPSTREAM,
          "module connection to "
              + ctx.channel().remoteAddress()
              + ": "
              + what
              + " ("
              + in.readableBytes()
              + " bytes, dropped); the connection is closed, never reused");
      in.skipBytes(in.readableBytes());
      broken = true;
    }

    @Override
    protected boolean isContentAlwaysEmpty(HttpMessage msg) {
      return HttpMethod.HEAD.equals(waiting.peek()) || super.isContentAlwaysEmpty(msg);
    }

    /** An informational answer (1xx) other than 101: the final answer still follows. */
    private static boolean interim(HttpResponse head) {
      int status = head.status().code();
      return status >= 100
          && status < 200
          && status != HttpResponseStatus.SWITCHING_PROTOCOLS.code();
    }
  }
}
