package io.okapigw.perf.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class VirtualUserTest {

  private static final BarcodeRow A = new BarcodeRow("a", "p1", "s");
  private static final BarcodeRow B = new BarcodeRow("b", "p2", "s");
  private static final BarcodeRow C = new BarcodeRow("c", "p3", "s");

  @Test
  void nextRow_goesRoundInOrder() {
    VirtualUser user = new VirtualUser(0, List.of(A, B, C), 1);

    assertThat(List.of(user.nextRow(), user.nextRow(), user.nextRow(), user.nextRow()))
        .containsExactly(A, B, C, A);
  }

  @Test
  void retire_theRowJustTaken_isNeverTakenAgainAndTheOrderGoesOn() {
    VirtualUser user = new VirtualUser(0, List.of(A, B, C), 1);
    user.nextRow();
    user.retire(user.nextRow());

    assertThat(List.of(user.nextRow(), user.nextRow(), user.nextRow())).containsExactly(C, A, C);
  }

  @Test
  void retire_theLastRowLeft_keepsIt() {
    VirtualUser user = new VirtualUser(0, List.of(A), 1);
    user.retire(user.nextRow());

    assertThat(user.nextRow()).isEqualTo(A);
  }
}
