package io.okapigw.perf.profile;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Where a profile sample's CPU goes: a name and the frames that own it. A sample belongs to the
 * category of its innermost frame that matches any category ({@link #ALL}, in order), so a hash
 * lookup inside a header map counts as headers and a socket write under a flush as a syscall.
 */
record CostCategory(String name, Pattern frames) {

  private static CostCategory of(String name, String... frameRegexes) {
    return new CostCategory(name, Pattern.compile(String.join("|", frameRegexes)));
  }

  /** The categories, most specific first where one frame could match two. */
  static final List<CostCategory> ALL =
      List.of(
          of(
              "syscalls: socket reads, writes and flushes, epoll",
              "^sun\\.nio\\.ch\\.",
              "^java\\.nio\\.channels\\.",
              "^io\\.netty\\.channel\\.nio\\.SelectedSelectionKeySetSelector"),
          of(
              "logging",
              "^org\\.apache\\.logging\\.",
              "^org\\.slf4j\\.",
              "^io\\.okapigw\\.core\\.logging\\.",
              "^io\\.okapigw\\.core\\.http\\.FailureLog\\.",
              "^io\\.okapigw\\.core\\.proxy\\.WaitLog\\."),
          of(
              "per-request metrics and timers",
              "^io\\.micrometer\\.",
              "^io\\.vertx\\.micrometer\\.",
              "^io\\.okapigw\\.core\\.proxy\\.RequestMetrics\\.",
              "^io\\.okapigw\\.core\\.upstream\\.CallMetrics\\.",
              "^io\\.okapigw\\.core\\.auth\\.AuthCallMetrics\\.",
              "^io\\.okapigw\\.core\\.upstream\\.UploadWatch\\.",
              "^io\\.vertx\\.core\\.impl\\.VertxImpl\\.(setTimer|cancelTimer|scheduleTimeout)",
              "^io\\.vertx\\.core\\.impl\\.VertxImpl\\$InternalTimerHandler",
              "^io\\.netty\\.util\\.concurrent\\.(AbstractScheduledEventExecutor|ScheduledFutureTask|DefaultPriorityQueue)",
              "^io\\.vertx\\.core\\.http\\.impl\\.\\w+\\.(idleTimeout|handleIdle|cancelTimeout|setTimeout)"),
          of(
              "token handling, credentials parsing",
              "^io\\.okapigw\\.credentials\\.",
              "^io\\.okapigw\\.core\\.proxy\\.ClientIdentity\\.",
              "^io\\.okapigw\\.core\\.auth\\.UnverifiedClaims\\.",
              "^io\\.okapigw\\.core\\.auth\\.Grants\\.",
              "^java\\.util\\.Base64",
              "^io\\.jsonwebtoken\\."),
          of(
              "auth stage: cache key and lookup",
              "^io\\.okapigw\\.cache\\.",
              "^io\\.okapigw\\.core\\.auth\\.",
              "^com\\.github\\.benmanes\\.caffeine\\."),
          of("routing", "^io\\.okapigw\\.core\\.routing\\.", "ProxyHandler\\.route"),
          of(
              "headers: read, copy, write (maps, names, values)",
              "^io\\.vertx\\.core\\.http\\.impl\\.headers\\.",
              "^io\\.netty\\.handler\\.codec\\.(DefaultHeaders|http\\.DefaultHttpHeaders|http\\.HttpHeaders|http\\.HttpHeadersEncoder|http\\.HttpUtil|CharSequenceValueConverter)",
              "^io\\.netty\\.handler\\.codec\\.http\\.HttpObjectDecoder\\.(readHeaders|splitHeader)",
              "^io\\.okapigw\\.core\\.http\\.(HeaderNames|OkapiHeaders)\\.",
              "^io\\.okapigw\\.core\\.proxy\\.ProxyRequest\\.(writeModuleHeaders|writeCommonHeaders)",
              "^io\\.okapigw\\.core\\.proxy\\.RequestIds\\.",
              "^io\\.okapigw\\.core\\.proxy\\.CorsPolicy\\."),
          of(
              "HTTP decoding and encoding (Netty codec, strict request reading)",
              "^io\\.netty\\.handler\\.codec\\.",
              "^io\\.okapigw\\.core\\.server\\.",
              "^io\\.vertx\\.core\\.http\\.impl\\.(HttpUtils|VertxHttpRequestDecoder|VertxHttpResponseEncoder)"),
          of(
              "bodies: pipes, buffer copies, Netty buffers",
              "^io\\.vertx\\.core\\.streams\\.",
              "^io\\.vertx\\.core\\.buffer\\.",
              "^io\\.netty\\.buffer\\.",
              "^io\\.okapigw\\.core\\.proxy\\.Exchange\\.",
              "^io\\.netty\\.util\\.Recycler"),
          of(
              "module client: pool, instance choice, call",
              "^io\\.vertx\\.core\\.net\\.impl\\.pool\\.",
              "^io\\.vertx\\.core\\.http\\.impl\\.(HttpClientImpl|SharedHttpClientConnectionGroup|HttpClientConnectionGroup|ConnectionManager|EndpointProvider)",
              "^io\\.vertx\\.core\\.net\\.impl\\.endpoint\\.",
              "^io\\.vertx\\.core\\.internal\\.resource\\.",
              "^io\\.okapigw\\.core\\.upstream\\.",
              "^io\\.okapigw\\.core\\.routing\\.Instances"),
          of(
              "Vert.x futures and promises",
              "^io\\.vertx\\.core\\.impl\\.future\\.",
              "^io\\.vertx\\.core\\.Future\\."),
          of(
              "Vert.x HTTP server and client connections (streams, queues, contexts)",
              "^io\\.vertx\\.core\\.http\\.impl\\.",
              "^io\\.vertx\\.core\\.net\\.impl\\.",
              "^io\\.vertx\\.core\\.streams\\.impl\\.InboundBuffer",
              "^io\\.vertx\\.core\\.internal\\."),
          of("our proxy and server code, other", "^io\\.okapigw\\."),
          of("Vert.x other (contexts, event loop dispatch)", "^io\\.vertx\\."),
          of("Netty event loop and pipeline", "^io\\.netty\\."),
          of(
              "JVM allocation slow path (TLAB refills, new objects)",
              "^OptoRuntime::new",
              "^MemAllocator",
              "^(Instance|TypeArray|ObjArray)Klass::allocate",
              "^AllocTracer"),
          of("JIT compiler", "^Compile", "^C2Compiler", "^Phase", "^Matcher::", "^Parse::"),
          of(
              "garbage collector",
              "^G1",
              "^GC",
              "^WorkerThread::",
              "^ConcurrentGCThread",
              "^CollectedHeap"));

  /** The category of samples that match none (JDK code outside these owners, the JVM itself). */
  static final String OTHER = "other (JDK and JVM outside the above)";

  /**
   * @param frames one sample's frames, outermost first, Java names with dots
   * @return the category's name
   */
  static String of(List<String> frames) {
    for (int i = frames.size() - 1; i >= 0; i--) {
      for (CostCategory c : ALL) {
        if (c.frames.matcher(frames.get(i)).find()) {
          return c.name;
        }
      }
    }
    return OTHER;
  }
}
