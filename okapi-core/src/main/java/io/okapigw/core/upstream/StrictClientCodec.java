package io.okapigw.core.upstream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
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
import io.vertx.core.http.impl.headers.HeadersMultiMap;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.function.Consumer;

/**
 * Netty's HTTP/1.1 client codec, made to read nothing from a module connection but the answers to
 * the requests sent on it (RFC 9112 §6.3: a client "MUST NOT process, cache, or forward such extra
 * data as a separate response"). Netty keeps the bytes that follow an answer's declared end (a
 * {@code Content-Length} one short, a byte after a chunked body's end, a second answer nobody asked
 * for) and reads them as the start of the next answer: on a pooled connection, the answer to the
 * next request sent there, another tenant's. Here:
 *
 * <ul>
 *   <li>bytes after the end of an answer, with no other request waiting for one, are dropped, and
 *       the connection is {@linkplain #broken() broken}: its {@link ModuleConnection} closes it at
 *       the answer's end instead of putting it back in the pool (the answer itself is relayed as
 *       its head framed it, as RFC 9112 lets a client do);
 *   <li>bytes that come while no request waits for an answer (an idle pooled connection) are
 *       dropped and the connection closed;
 *   <li>from then on every byte the connection brings is dropped.
 * </ul>
 *
 * Either way the module broke HTTP: its {@link ModuleConnection} is told ({@link #onStray}), and
 * the instance is ejected at once.
 *
 * <p>What Netty refuses itself (two lengths, both framings, a bad chunk) fails the answer's decoder
 * result, and the connection is closed. The answer to a {@code HEAD} is read without a body. An
 * answer's headers are a Vert.x {@link HeadersMultiMap}, which the gateway reads and relays as they
 * are. The gateway sends no {@code CONNECT} and asks for no upgrade. Confined to the connection's
 * event loop.
 */
final class StrictClientCodec
    extends CombinedChannelDuplexHandler<StrictClientCodec.Decoder, StrictClientCodec.Encoder> {

  /** Answers' headers as Vert.x's multi-map, the type the gateway's headers are everywhere. */
  private static final HttpHeadersFactory HEADERS =
      new HttpHeadersFactory() {
        @Override
        public HttpHeaders newHeaders() {
          return HeadersMultiMap.httpHeaders();
        }

        @Override
        public HttpHeaders newEmptyHeaders() {
          return HeadersMultiMap.httpHeaders();
        }
      };

  /** The methods of the requests sent whose answers have not ended, oldest first. */
  private final Queue<HttpMethod> waiting = new ArrayDeque<>();

  private final FailureLog log;
  private boolean broken;
  private Consumer<String> onStray = what -> {};

  /**
   * @param options the decoder's limits ({@code proxy.*}: the largest head)
   * @param log where a connection closed for its framing is told, as an upstream failure
   */
  StrictClientCodec(UpstreamOptions options, FailureLog log) {
    this.log = log;
    init(new Decoder(config(options)), new Encoder());
  }

  /**
   * @return whether the connection read bytes that are no answer to a request, or an answer whose
   *     framing broke: it must never carry another request
   */
  boolean broken() {
    return broken;
  }

  /**
   * @param handler told, before the connection is closed or given up, of bytes that answer no
   *     request (what they were, for the log): the module broke HTTP
   */
  void onStray(Consumer<String> handler) {
    onStray = handler;
  }

  private static HttpDecoderConfig config(UpstreamOptions options) {
    return new HttpDecoderConfig()
        .setMaxHeaderSize(options.maxHeaderSize())
        .setMaxChunkSize(ModuleClient.BODY_CHUNK_SIZE)
        .setHeadersFactory(HEADERS)
        .setTrailersFactory(HEADERS);
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
        // Netty drops the rest itself, and the connection is closed
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
      onStray.accept(what);
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
