package io.okapigw.core.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.okapigw.core.http.Framing;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.routing.Instances;
import io.okapigw.core.testing.RawModule;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A module call's request is framed by the framing its caller gives ({@link ModuleCall#sendHead}),
 * whatever its headers say, and its body held to it: a piece past it, or an end short of it, fails
 * the call with 500 and closes the connection; not a byte of such a piece reaches the module.
 */
class CallFramingTest {

  private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";

  private Vertx vertx;
  private RawModule module;
  private ModuleClient client;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    module = RawModule.start();
    client = ModuleClient.create(vertx, UpstreamOptions.defaults(), new CallObserver() {});
  }

  @AfterEach
  void stop() {
    client.close().await();
    vertx.close().await();
    module.close();
  }

  @Test
  void sendHead_headersSayOtherwise_theirFramingRemoved_theGivenOneWritten() throws Exception {
    int status =
        call(
            call -> {
              call.headers().add("Content-Length", "999").add("Transfer-Encoding", "chunked");
              call.sendHead(Framing.length(5));
              call.write(bytes("hello"));
              call.end();
              return answer(call);
            });
    assertThat(status).isEqualTo(200);
    RawModule.Connection got = module.next();
    assertThat(got.problem()).as(got.toString()).isNull();
    assertThat(got.requests()).hasSize(1);
    RawModule.Request request = got.requests().get(0);
    assertThat(request.headers("Content-Length")).containsExactly("5");
    assertThat(request.headers("Transfer-Encoding")).isEmpty();
    assertThat(request.body()).isEqualTo("hello");
  }

  @Test
  void sendHead_chunked_lengthInTheHeadersRemoved() throws Exception {
    call(
        call -> {
          call.headers().add("Content-Length", "2");
          call.sendHead(Framing.CHUNKED);
          call.write(bytes(SMUGGLED));
          call.end();
          return answer(call);
        });
    RawModule.Request request = module.next().requests().get(0);
    assertThat(request.framing()).isEqualTo("chunked");
    assertThat(request.headers("Content-Length")).isEmpty();
    assertThat(request.body()).isEqualTo(SMUGGLED);
  }

  @Test
  void write_callFramedNone_refused500_noByteOfItSent() throws Exception {
    Throwable refused = refused(Framing.NONE, SMUGGLED, true);
    assertThat(((HttpError) refused).status()).isEqualTo(500);
    assertThat(refused.getMessage()).contains("refused", "framed none");
    RawModule.Connection got = module.next();
    assertThat(got.text()).doesNotContain("smuggled");
    assertThat(got.requests()).hasSizeLessThanOrEqualTo(1);
  }

  @Test
  void write_pastItsLength_refused500_noByteOfThePieceSent() throws Exception {
    Throwable refused = refused(Framing.length(2), "ok" + SMUGGLED, true);
    assertThat(((HttpError) refused).status()).isEqualTo(500);
    RawModule.Connection got = module.next();
    assertThat(got.text()).doesNotContain("smuggled").doesNotContain("\r\n\r\nok");
  }

  @Test
  void end_shortOfItsLength_refused500_connectionClosed() throws Exception {
    Throwable refused = refused(Framing.length(10), "hello", false);
    assertThat(((HttpError) refused).status()).isEqualTo(500);
    assertThat(refused.getMessage()).contains("ended after 5 bytes");
    RawModule.Connection got = module.next();
    assertThat(got.requests()).as("a body cut short, never read as complete").isEmpty();
  }

  /**
   * Sends a head framed {@code framing} (flushed), then {@code body} in one piece, then ends it.
   *
   * @param flushFirst whether the head is flushed before the body is written
   * @return what the call failed with
   */
  private Throwable refused(Framing framing, String body, boolean flushFirst) throws Exception {
    try {
      call(
          call -> {
            call.sendHead(framing);
            if (flushFirst) {
              call.flush();
            }
            call.write(bytes(body));
            call.end();
            return call.answered().map(ModuleCall.Head::status);
          });
    } catch (CompletionException | IllegalStateException e) {
      return e.getCause();
    } catch (Exception e) {
      return e instanceof HttpError ? e : e.getCause();
    }
    throw new AssertionError("the call did not fail");
  }

  /** The answer's status, once its body is read (and the connection closed, as it says). */
  private static Future<Integer> answer(ModuleCall call) {
    return call.answered().compose(head -> call.read(100).map(body -> head.status()));
  }

  private <T> T call(Function<ModuleCall, Future<T>> send) throws Exception {
    Context context = vertx.getOrCreateContext();
    Promise<T> done = Promise.promise();
    Instances instances = Instances.of("mod-a-1.0.0", List.of(module.url()));
    context.runOnContext(
        v ->
            client
                .open(CallKind.HANDLER, instances, HttpMethod.POST, "/x", 30_000)
                .compose(send)
                .onComplete(done));
    return done.future().await(1, TimeUnit.MINUTES);
  }

  private static ByteBuf bytes(String s) {
    return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
  }
}
