package io.okapigw.core.callback;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.http.RequestIds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Which requests are a call back of a call in flight: only those carrying its key (the secret
 * whole), naming its tenant, while it is in flight.
 */
class CallBacksTest {

  private final CallBacks calls = CallBacks.create();

  @Test
  void callBacks_ofCallBacks_recognisedAsTheNearestCall() {
    Call client = calls.open("t", null, "/a");
    Call callBack = calls.open("t", client.requestId(), "/b");
    Call nested = calls.open("t", callBack.requestId(), "/c");

    assertThat(calls.callerOf("t", client.requestId())).containsSame(client);
    assertThat(calls.callerOf("t", callBack.requestId())).containsSame(callBack);
    assertThat(calls.callerOf("t", nested.requestId())).containsSame(nested);
    assertThat(nested.requestId()).startsWith(callBack.requestId() + ";");
  }

  @Test
  void whenIdle_runsOnceTheLastCallInFlightCloses_once() {
    Call first = calls.open("t", null, "/a");
    Call second = calls.open("t", null, "/b");
    AtomicInteger ran = new AtomicInteger();

    calls.whenIdle(ran::incrementAndGet);
    first.close();
    assertThat(ran).hasValue(0);
    second.close();
    second.close();
    calls.open("t", null, "/c").close();

    assertThat(ran).hasValue(1);
  }

  @Test
  void whenIdle_callsClosingOnManyThreads_runsExactlyOnceWhenAllAreClosed() throws Exception {
    for (int round = 0; round < 200; round++) {
      CallBacks node = CallBacks.create();
      List<Call> open = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        open.add(node.open("t", null, "/a"));
      }
      AtomicInteger ran = new AtomicInteger();
      AtomicInteger inFlightWhenRun = new AtomicInteger(-1);
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> closers = new ArrayList<>();
      for (Call call : open) {
        closers.add(started(() -> awaitThen(go, call::close)));
      }
      closers.add(
          started(
              () ->
                  awaitThen(
                      go,
                      () ->
                          node.whenIdle(
                              () -> {
                                inFlightWhenRun.set(node.inFlight());
                                ran.incrementAndGet();
                              }))));
      go.countDown();
      for (Thread closer : closers) {
        closer.join();
      }

      assertThat(ran).as("round %d", round).hasValue(1);
      assertThat(inFlightWhenRun).as("round %d", round).hasValue(0);
    }
  }

  private static Thread started(Runnable action) {
    Thread thread = new Thread(action);
    thread.start();
    return thread;
  }

  private static void awaitThen(CountDownLatch go, Runnable action) {
    try {
      go.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    action.run();
  }

  @Test
  void whenIdle_nothingInFlight_runsAtOnce() {
    AtomicInteger ran = new AtomicInteger();

    calls.whenIdle(ran::incrementAndGet);

    assertThat(ran).hasValue(1);
  }

  @Test
  void callBack_afterItsCallClosed_isAClientsRequest() {
    Call call = calls.open("t", null, "/a");
    call.close();
    call.close();

    assertThat(calls.callerOf("t", call.requestId())).isEmpty();
    assertThat(calls.inFlight()).isZero();
  }

  @Test
  void callBack_ofAnotherTenantsCall_notRecognised() {
    Call call = calls.open("t1", null, "/a");

    assertThat(calls.callerOf("t2", call.requestId())).isEmpty();
  }

  @Test
  void idWithTheSecretChangedAnywhere_notRecognised() {
    Call call = calls.open("t", null, "/a");
    String id = call.requestId();

    for (int i = id.length() - RequestIds.KEY_LENGTH + RequestIds.HANDLE_LENGTH;
        i < id.length();
        i++) {
      char other = id.charAt(i) == 'A' ? 'B' : 'A';
      String forged = id.substring(0, i) + other + id.substring(i + 1);
      assertThat(calls.callerOf("t", forged)).as(forged).isEmpty();
    }
    assertThat(calls.callerOf("t", RequestIds.loggable(id))).isEmpty();
    assertThat(calls.callerOf("t", id.substring(0, id.length() - 1))).isEmpty();
  }

  @Test
  void callBack_whoseModuleChainedAnIdOfItsOwn_recognised() {
    Call call = calls.open("t", null, "/a");

    assertThat(calls.callerOf("t", call.requestId() + ";123456/b")).containsSame(call);
    assertThat(calls.callerOf("t", call.requestId() + ";123456/b~" + "x".repeat(32)))
        .containsSame(call);
  }

  @Test
  void clientsOwnIds_neverRecognised() {
    calls.open("t", null, "/a");

    assertThat(calls.callerOf("t", null)).isEmpty();
    assertThat(calls.callerOf("t", "")).isEmpty();
    assertThat(calls.callerOf("t", "123456/a")).isEmpty();
    assertThat(calls.callerOf("t", ";;;~")).isEmpty();
    assertThat(calls.callerOf("t", ("1/a~" + "A".repeat(32) + ";").repeat(500))).isEmpty();
  }

  @Test
  void keys_ofManyCalls_distinct() {
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      Call call = calls.open("t", null, "/a");
      keys.add(call.requestId().substring(call.requestId().indexOf('~')));
      call.close();
    }
    assertThat(keys).hasSize(10_000);
  }
}
