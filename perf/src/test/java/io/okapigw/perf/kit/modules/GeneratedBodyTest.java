package io.okapigw.perf.kit.modules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Sizes;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GeneratedBodyTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  private record Drained(long bytes, long crc, int largestChunk, boolean pattern) {}

  /** Reads a whole body on its context, keeping only counts and a CRC (never the body). */
  private Future<Drained> drain(long size) {
    Context context = vertx.getOrCreateContext();
    Promise<Drained> done = Promise.promise();
    context.runOnContext(
        v -> {
          CRC32 crc = new CRC32();
          long[] bytes = {0};
          int[] largest = {0};
          boolean[] pattern = {true};
          GeneratedBody body = GeneratedBody.of(context, size);
          body.endHandler(
              end -> done.complete(new Drained(bytes[0], crc.getValue(), largest[0], pattern[0])));
          body.handler(
              chunk -> {
                pattern[0] &=
                    chunk.getByte(0) == GeneratedBody.byteAt(bytes[0])
                        && chunk.getByte(chunk.length() - 1)
                            == GeneratedBody.byteAt(bytes[0] + chunk.length() - 1);
                crc.update(chunk.getBytes());
                bytes[0] += chunk.length();
                largest[0] = Math.max(largest[0], chunk.length());
              });
        });
    return done.future();
  }

  @ParameterizedTest
  @ValueSource(
      longs = {
        0,
        1,
        1000,
        GeneratedBody.CHUNK_SIZE - 1,
        GeneratedBody.CHUNK_SIZE,
        GeneratedBody.CHUNK_SIZE + 1,
        3 * Sizes.MB + 17,
        64 * Sizes.MB
      })
  void body_ofSize_isExactlyThatLongInChunksOfAtMost64KiB(long size) {
    Drained drained = drain(size).await();
    assertThat(drained.bytes()).isEqualTo(size);
    assertThat(drained.largestChunk()).isLessThanOrEqualTo(GeneratedBody.CHUNK_SIZE);
    assertThat(drained.pattern()).isTrue();
  }

  @Test
  void body_generatedTwice_hasIdenticalBytes() {
    long size = 5 * Sizes.MB + 123;
    assertThat(drain(size).await().crc()).isEqualTo(drain(size).await().crc());
  }

  @Test
  void pausedBody_emitsOnlyWhatIsFetched() {
    Context context = vertx.getOrCreateContext();
    List<Integer> seen = new ArrayList<>();
    Promise<List<Integer>> afterPause = Promise.promise();
    Promise<List<Integer>> afterFetch = Promise.promise();
    context.runOnContext(
        v -> {
          GeneratedBody body = GeneratedBody.of(context, 10L * GeneratedBody.CHUNK_SIZE);
          body.pause();
          body.handler(chunk -> seen.add(chunk.length()));
          // tasks on one context run in order: each check runs after any emission scheduled before
          context.runOnContext(
              a ->
                  context.runOnContext(
                      b -> {
                        afterPause.complete(List.copyOf(seen));
                        body.fetch(2);
                        context.runOnContext(
                            c -> context.runOnContext(d -> afterFetch.complete(List.copyOf(seen))));
                      }));
        });
    assertThat(afterPause.future().await()).isEmpty();
    assertThat(afterFetch.future().await()).hasSize(2);
  }

  @Test
  void byteAt_followsTheAlphabetWithinAChunk() {
    assertThat(GeneratedBody.byteAt(0)).isEqualTo((byte) 'a');
    assertThat(GeneratedBody.byteAt(27)).isEqualTo((byte) 'b');
    assertThat(GeneratedBody.byteAt(GeneratedBody.CHUNK_SIZE)).isEqualTo((byte) 'a');
  }

  @Test
  void of_negativeSize_fails() {
    Context context = vertx.getOrCreateContext();
    assertThatThrownBy(() -> GeneratedBody.of(context, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("size");
  }
}
